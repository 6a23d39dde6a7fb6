import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DESCRIPTION_FILE,
  generateApiTypes,
  mergeExtension,
  OUTPUT_FILE,
  sha256,
} from '../../scripts/generate-api-types.js';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/zulip-openapi.json', import.meta.url), 'utf8'),
) as { source: { sha256: string } };

describe('the generated API types', () => {
  it('are what the generator makes of the checked-in description and extension', async () => {
    const fresh = await generateApiTypes();
    // On a difference: `npm run api:types`, and commit the output with its inputs.
    expect(readFileSync(OUTPUT_FILE, 'utf8') === fresh).toBe(true);
  });

  it('come from the same description revision as the response-schema fixture', () => {
    expect(sha256(readFileSync(DESCRIPTION_FILE, 'utf8'))).toBe(fixture.source.sha256);
  });

  it('merge the extension: parameters by name, oneOf appended, the rest by key', () => {
    const base = {
      parameters: [{ name: 'a', in: 'query', schema: { type: 'string' } }],
      oneOf: [{ $ref: '#/x' }],
      properties: { keep: { type: 'string' } },
    };
    const extension = {
      parameters: [
        { name: 'a', in: 'query', schema: { type: 'integer' } },
        { name: 'b', in: 'query' },
      ],
      oneOf: [{ $ref: '#/x' }, { $ref: '#/y' }],
      properties: { added: { type: 'boolean' } },
    };
    expect(mergeExtension(base, extension)).toEqual({
      parameters: [
        { name: 'a', in: 'query', schema: { type: 'integer' } },
        { name: 'b', in: 'query' },
      ],
      oneOf: [{ $ref: '#/x' }, { $ref: '#/y' }],
      properties: { keep: { type: 'string' }, added: { type: 'boolean' } },
    });
  });
});
