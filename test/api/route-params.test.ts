/**
 * Every route's declared parameters against the operation its `api` names in
 * Zulip's OpenAPI description with Hearth's extension (api/): name, type,
 * required. The type checker compares the same facts where it can see them
 * (server/http/api-link.ts); this test reads them from the description
 * itself, so it also sees what types cannot (an integer against Zulip's
 * float, specs built at run time). The deliberate differences are declared
 * once, at each route (`differences`), with their reasons; this test holds
 * them to exactly what it finds.
 */
import { describe, expect, it } from 'vitest';
import { loadMergedDescription } from '../../scripts/generate-api-types.js';
import { allRoutes } from '../../server/http/routes/index.js';
import {
  Description,
  declaredDifferences,
  differenceKey,
  differences,
  undescribedButDescribed,
} from './route-params.js';

const description = new Description(loadMergedDescription() as never);

describe("the routes' parameters", () => {
  const found = differences(allRoutes, description);
  const declared = declaredDifferences(allRoutes);

  it('differ from the description only where the route declares it', () => {
    const declaredKeys = new Set(declared.map(differenceKey));
    const undeclared = found.filter((d) => !declaredKeys.has(differenceKey(d)));
    expect(undeclared.map((d) => `${d.route}: ${d.detail}`)).toEqual([]);
  });

  it('still differ wherever a route declares a difference (no stale declarations)', () => {
    const foundKeys = new Set(found.map(differenceKey));
    const stale = declared.filter((d) => !foundKeys.has(differenceKey(d)));
    expect(stale.map(differenceKey)).toEqual([]);
  });

  it('belong to routes declared undescribed only where the description lacks them', () => {
    expect(undescribedButDescribed(allRoutes, description)).toEqual([]);
  });

  it('are compared: a route with a parameter of another type is reported', () => {
    const message = allRoutes.find((r) => r.method === 'POST' && r.path === '/messages/render')!;
    const changed = {
      ...message,
      params: { content: { ...message.params['content']!, kind: 'integer' } },
    };
    expect(differences([changed as never], description)).toEqual([
      {
        route: 'POST /messages/render',
        what: 'content is integer',
        detail: "content is integer, the description's is string",
      },
    ]);
  });

  it('are compared with the operation the route names, its path parameters by position', () => {
    const upload = allRoutes.find(
      (r) => r.method === 'GET' && r.path === '/user_uploads/:realm_id(^\\d+)/*' && !r.atRoot,
    )!;
    expect(upload.api).toBe('/user_uploads/{realm_id_str}/{filename}');
    const renamed = { ...upload, api: '/messages/{message_id}' };
    expect(differences([renamed as never], description).map((d) => d.what)).toEqual([
      'the path does not match /messages/{message_id}',
    ]);
  });
});
