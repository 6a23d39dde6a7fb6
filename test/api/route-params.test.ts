/**
 * Every route's declared parameters against Zulip's OpenAPI description with
 * Hearth's extension (api/): name, type, required. So a route's parameters
 * cannot drift from Zulip's unnoticed; the deliberate differences are listed,
 * each with its reason, in route-param-differences.ts.
 */
import { describe, expect, it } from 'vitest';
import { loadMergedDescription } from '../../scripts/generate-api-types.js';
import { allRoutes } from '../../server/http/routes/index.js';
import { DELIBERATE_DIFFERENCES } from './route-param-differences.js';
import { Description, differences } from './route-params.js';

const description = new Description(loadMergedDescription() as never);

describe("the routes' parameters", () => {
  const found = differences(allRoutes, description);

  it('differ from the description only where declared', () => {
    const undeclared = found.filter((d) => !(d in DELIBERATE_DIFFERENCES));
    expect(undeclared).toEqual([]);
  });

  it('still differ wherever a difference is declared (no stale entries)', () => {
    const stale = Object.keys(DELIBERATE_DIFFERENCES).filter((d) => !found.includes(d));
    expect(stale).toEqual([]);
  });

  it('are compared: a route with a parameter of another type is reported', () => {
    const message = allRoutes.find((r) => r.method === 'POST' && r.path === '/messages/render')!;
    const changed = {
      ...message,
      params: { content: { ...message.params['content']!, kind: 'integer' } },
    };
    expect(differences([changed as never], description)).toEqual([
      "POST /messages/render: content is integer, the description's is string",
    ]);
  });
});
