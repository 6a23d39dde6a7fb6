/**
 * The compile-time link between a route's parameter spec and the API
 * description (server/http/api-link.ts). The `@ts-expect-error` lines are
 * the test: `npm run typecheck` fails if any of those routes compiles, that
 * is, if a spec that disagrees with the description's `Params` in a name, a
 * kind or required-ness, or a route without its link, were accepted.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type DescribedParams,
  outsideApi,
  type ParamDifferences,
  type PathShape,
  undescribed,
} from '../../server/http/api-link.js';
import { type Param, p } from '../../server/http/params.js';
import { route } from '../../server/http/route.js';

const answer = () => ({});

describe("a route's parameter spec against the description", () => {
  it('compiles when it agrees (POST /messages/render: content, a required string)', () => {
    const ok = route({
      method: 'POST',
      path: '/messages/render',
      api: '/messages/render',
      params: { content: p.str() },
      handler: answer,
    });
    expect(ok.api).toBe('/messages/render');
  });

  it('fails on a value of another kind, unless declared with its reason', () => {
    // @ts-expect-error content is integer: the description's is a string
    route({
      method: 'POST',
      path: '/messages/render',
      api: '/messages/render',
      params: { content: p.int() },
      handler: answer,
    });
    route({
      method: 'POST',
      path: '/messages/render',
      api: '/messages/render',
      differences: { 'content is integer': 'a reason, for this test' },
      params: { content: p.int() },
      handler: answer,
    });
  });

  it('fails on required-ness that differs', () => {
    // @ts-expect-error content is optional: the description requires it
    route({
      method: 'POST',
      path: '/messages/render',
      api: '/messages/render',
      params: { content: p.str().optional() },
      handler: answer,
    });
    // @ts-expect-error client_gravatar is required: the description's has a default
    route({
      method: 'GET',
      path: '/users',
      api: '/users',
      params: { client_gravatar: p.bool(), include_custom_profile_fields: p.bool().default(false) },
      handler: answer,
    });
  });

  it("fails on a name the description lacks, and on the description's name left out", () => {
    // @ts-expect-error contents is not in the description; content is not declared
    route({
      method: 'POST',
      path: '/messages/render',
      api: '/messages/render',
      params: { contents: p.str() },
      handler: answer,
    });
    // An alias standing for the description's name counts as declaring it.
    route({
      method: 'POST',
      path: '/messages/render',
      api: '/messages/render',
      params: { text: p.str().alias('content') },
      differences: { 'text is not in the description': 'a reason, for this test' },
      handler: answer,
    });
  });

  it('fails on a parameter whose type hides its kind or required-ness', () => {
    const hidden: Param<string> = p.str();
    // @ts-expect-error content: give it a literal kind; say whether it is required
    route({
      method: 'POST',
      path: '/messages/render',
      api: '/messages/render',
      params: { content: hidden },
      handler: answer,
    });
  });

  it('fails without a link, with a path that does not match it, or an operation it lacks', () => {
    // @ts-expect-error api is required: every route names its operation or why it has none
    route({ method: 'POST', path: '/messages/render', params: {}, handler: answer });
    // @ts-expect-error the path's shape is not the operation's
    route({
      method: 'POST',
      path: '/messages/:message_id(^\\d+)/render',
      api: '/messages/render',
      params: { content: p.str() },
      handler: answer,
    });
    // @ts-expect-error the description has no DELETE /messages/render
    route({
      method: 'DELETE',
      path: '/messages/render',
      api: '/messages/render',
      params: { content: p.str() },
      handler: answer,
    });
    route({
      method: 'POST',
      path: '/hearth/only',
      api: undescribed('an endpoint for this test'),
      params: { anything: p.str() },
      handler: answer,
    });
    route({
      method: 'GET',
      path: '/favicon.ico',
      api: outsideApi('a file for this test'),
      params: {},
      handler: answer,
    });
  });

  it("reads path parameters by position, under the route's names", () => {
    expectTypeOf<PathShape<'/streams/:id(^\\d+)/members'>>().toEqualTypeOf<
      PathShape<'/streams/{stream_id}/members'>
    >();
    expectTypeOf<
      DescribedParams<'/user_uploads/{realm_id_str}/{filename}', 'get', '/user_uploads/:realm_id/*'>
    >().toEqualTypeOf<{ realm_id: number; '*': string }>();
    expectTypeOf<
      ParamDifferences<
        { stream_id: ReturnType<typeof p.str>; topic: ReturnType<typeof p.int> },
        { stream_id: number; topic_name: string }
      >
    >().toEqualTypeOf<
      'stream_id is string' | 'topic is not in the description' | 'topic_name is not declared'
    >();
  });
});
