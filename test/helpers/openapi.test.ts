/**
 * Proves the OpenAPI response validator can both PASS and FAIL, using
 * hand-written bodies (./openapi-bodies.ts) as known-good ones.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OpenApiFixture } from '../fixtures/types.js';
import {
  expectValidResponse,
  findOperation,
  hasResponseSchema,
  validateResponse,
} from './openapi.js';
import { goodBody } from './openapi-bodies.js';

type Obj = Record<string, unknown>;

const spec = JSON.parse(
  readFileSync(new URL('../fixtures/zulip-openapi.json', import.meta.url), 'utf8'),
) as OpenApiFixture;

describe('the fixture', () => {
  it('records its source and keeps no documentation', () => {
    expect(spec.source).toMatchObject({ file: 'zulip-openapi.yaml', openapi: '3.0.1' });
    expect(spec.source.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Property names may be `description`, schema keywords may not.
    const docKeys: string[] = [];
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) {
        value.forEach((v, i) => {
          walk(v, `${where}/${i}`);
        });
        return;
      }
      if (value === null || typeof value !== 'object') return;
      for (const [key, v] of Object.entries(value)) {
        if (where.endsWith('/properties')) walk(v, `${where}/${key}`);
        else if (/^(description|examples?|title|x-.*)$/.test(key)) docKeys.push(`${where}/${key}`);
        else walk(v, `${where}/${key}`);
      }
    };
    walk(spec.schemas, '#/schemas');
    walk(spec.paths, '#/paths');
    expect(docKeys).toEqual([]);
  });
});

describe('findOperation', () => {
  it.each([
    ['GET', '/users/me', '/users/me'],
    ['GET', '/users/12', '/users/{user_id}'],
    ['GET', '/users/iago@zulip.com', '/users/{email}'],
    ['GET', '/users/iago%40zulip.com', '/users/{email}'],
    ['GET', '/users/me/subscriptions?include_subscribers=true', '/users/me/subscriptions'],
    ['GET', '/users/12/subscriptions/5', '/users/{user_id}/subscriptions/{stream_id}'],
    ['POST', '/users/me/subscriptions/properties', '/users/me/subscriptions/properties'],
    ['POST', '/users/me/presence', '/users/me/presence'],
    ['GET', '/users/12/presence', '/users/{user_id_or_email}/presence'],
    ['DELETE', '/invites/multiuse/7', '/invites/multiuse/{invite_id}'],
    ['GET', '/api/v1/messages/42/', '/messages/{message_id}'],
    ['get', '/server_settings', '/server_settings'],
  ])('%s %s -> %s', (method, path, template) => {
    expect(findOperation(method, path)?.template).toBe(template);
  });

  it('returns the path parameters', () => {
    expect(findOperation('GET', '/users/12/subscriptions/5')?.params).toEqual({
      user_id: '12',
      stream_id: '5',
    });
  });

  it('returns null for unknown paths and methods', () => {
    expect(findOperation('GET', '/no/such/endpoint')).toBeNull();
    expect(findOperation('PUT', '/server_settings')).toBeNull();
    // `{user_id}` is an integer parameter, so `abc` cannot match it.
    expect(findOperation('GET', '/users/abc/subscriptions/5')).toBeNull();
  });
});

describe('hasResponseSchema', () => {
  it('knows documented responses', () => {
    expect(hasResponseSchema('GET', '/server_settings', 200)).toBe(true);
    expect(hasResponseSchema('GET', '/events', 400)).toBe(true);
  });

  it('falls back to the generic error schema for undocumented 4xx', () => {
    expect(hasResponseSchema('GET', '/users/me', 401)).toBe(true);
    expect(hasResponseSchema('GET', '/users/me', 404)).toBe(true);
  });

  it('is false for unknown paths, undocumented non-4xx and non-JSON responses', () => {
    expect(hasResponseSchema('GET', '/no/such/endpoint', 200)).toBe(false);
    expect(hasResponseSchema('GET', '/users/me', 500)).toBe(false);
    expect(hasResponseSchema('GET', '/users/me', 201)).toBe(false);
    expect(hasResponseSchema('POST', '/real-time', 200)).toBe(false);
  });

  it('makes validateResponse fail rather than silently pass', () => {
    const result = validateResponse('GET', '/no/such/endpoint', 200, { result: 'success' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toMatch(/no operation/);
  });
});

describe('GET /server_settings', () => {
  const good = () => goodBody('get_server_settings_200_response');

  it('accepts a valid body', () => {
    expect(validateResponse('GET', '/server_settings', 200, good())).toEqual({ ok: true });
    expect(() => expectValidResponse('GET', '/server_settings?x=1', 200, good())).not.toThrow();
  });

  it('rejects a wrong type', () => {
    const body = { ...good(), zulip_version: 11 };
    const result = validateResponse('GET', '/server_settings', 200, body);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toContain('/zulip_version must be string');
  });

  it('rejects a wrong nested type', () => {
    const body = good();
    (body['authentication_methods'] as Obj)['password'] = 'yes';
    const result = validateResponse('GET', '/server_settings', 200, body);
    expect(!result.ok && result.errors).toContain(
      '/authentication_methods/password must be boolean',
    );
  });

  it('rejects keys the reference does not know', () => {
    const result = validateResponse('GET', '/server_settings', 200, { ...good(), bogus: 1 });
    expect(!result.ok && result.errors).toContain("must NOT have additional properties: 'bogus'");
  });

  it('rejects a missing `result`, which the reference does mark required', () => {
    const { result: _, ...body } = good();
    const result = validateResponse('GET', '/server_settings', 200, body);
    expect(!result.ok && result.errors).toContain("must have required property 'result'");
  });

  it('needs requiredKeys to reject a missing `zulip_version`', () => {
    // The reference does not list `zulip_version` as required, so schema
    // validation alone accepts its absence.
    const { zulip_version: _, ...body } = good();
    expect(validateResponse('GET', '/server_settings', 200, body).ok).toBe(true);
    const result = validateResponse('GET', '/server_settings', 200, body, {
      requiredKeys: ['zulip_version', 'realm_name'],
    });
    expect(!result.ok && result.errors).toContain(
      "(root) must have required property 'zulip_version'",
    );
    expect(!result.ok && result.errors).not.toContain('realm_name');
  });

  it('expectValidResponse throws a readable error with the body', () => {
    const body = { ...good(), zulip_version: 11 };
    expect(() => expectValidResponse('GET', '/server_settings', 200, body)).toThrow(
      /GET \/server_settings \(200\)[\s\S]*\/zulip_version must be string[\s\S]*body: \{/,
    );
  });
});

describe('/users/me vs /users/{user_id}', () => {
  it('validates each shape against its own operation', () => {
    const own = goodBody('get_own_user_200_response');
    const other = goodBody('get_user_by_email_200_response');
    expect(validateResponse('GET', '/users/me', 200, own)).toEqual({ ok: true });
    expect(validateResponse('GET', '/users/10', 200, other)).toEqual({ ok: true });
    expect(validateResponse('GET', '/users/hamlet@zulip.com', 200, other)).toEqual({ ok: true });
    // The flat own-user body is not a `{ user: {...} }` body and vice versa.
    expect(validateResponse('GET', '/users/10', 200, own).ok).toBe(false);
    expect(validateResponse('GET', '/users/me', 200, other).ok).toBe(false);
  });
});

describe('nullable fields', () => {
  it('accept null', () => {
    const body = goodBody('get_user_by_email_200_response');
    Object.assign(body['user'] as Obj, { delivery_email: null, bot_type: null, avatar_url: null });
    expect(validateResponse('GET', '/users/10', 200, body)).toEqual({ ok: true });

    const subs = goodBody('get_subscriptions_200_response');
    Object.assign((subs['subscriptions'] as Obj[])[0]!, { creator_id: null, folder_id: null });
    expect(validateResponse('GET', '/users/me/subscriptions', 200, subs)).toEqual({ ok: true });
  });

  it('still check the non-null type', () => {
    const body = goodBody('get_user_by_email_200_response');
    (body['user'] as Obj)['delivery_email'] = 5;
    const result = validateResponse('GET', '/users/10', 200, body);
    expect(!result.ok && result.errors).toContain('/user/delivery_email must be string,null');
  });

  it('do not make non-nullable fields nullable', () => {
    const body = goodBody('get_user_by_email_200_response');
    (body['user'] as Obj)['full_name'] = null;
    expect(validateResponse('GET', '/users/10', 200, body).ok).toBe(false);
  });
});

describe('error responses', () => {
  const badQueue = {
    result: 'error',
    msg: 'Bad event queue ID: fb67bf8a-c031-47cc-84cf-ed80accacda8',
    code: 'BAD_EVENT_QUEUE_ID',
    queue_id: 'fb67bf8a-c031-47cc-84cf-ed80accacda8',
  };

  it('accepts BAD_EVENT_QUEUE_ID for GET /events 400', () => {
    expect(validateResponse('GET', '/events', 400, badQueue)).toEqual({ ok: true });
  });

  it('rejects a malformed GET /events 400 body', () => {
    expect(validateResponse('GET', '/events', 400, { ...badQueue, result: 'success' }).ok).toBe(
      false,
    );
    expect(validateResponse('GET', '/events', 400, { ...badQueue, queue_id: 1 }).ok).toBe(false);
    const { code: _, ...noCode } = badQueue;
    expect(validateResponse('GET', '/events', 400, noCode).ok).toBe(false);
  });

  it('uses the generic coded error for undocumented 4xx statuses', () => {
    const body = { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' };
    expect(validateResponse('GET', '/users/me', 401, body)).toEqual({ ok: true });
    // Extra keys are fine (e.g. MISSING_ARGUMENT's `var_name`) ...
    expect(validateResponse('GET', '/users/me', 400, { ...body, var_name: 'x' }).ok).toBe(true);
    // ... but `code` is mandatory.
    const result = validateResponse('GET', '/users/me', 401, { result: 'error', msg: 'x' });
    expect(!result.ok && result.errors).toContain("must have required property 'code'");
  });
});

describe('POST /register', () => {
  it('accepts a valid body plus Hearth keys listed in allowExtraKeys', () => {
    const body = { ...goodBody('register_queue_200_response'), service_feature_level: 1 };
    const opts = {
      allowExtraKeys: ['service_feature_level'],
      requiredKeys: ['service_feature_level', 'zulip_version', 'queue_id'],
    };
    expect(validateResponse('POST', '/register', 200, body, opts)).toEqual({ ok: true });
    expect(() => expectValidResponse('POST', '/register', 200, body, opts)).not.toThrow();
  });

  it('rejects the extra key without allowExtraKeys', () => {
    const body = { ...goodBody('register_queue_200_response'), service_feature_level: 1 };
    const result = validateResponse('POST', '/register', 200, body);
    expect(!result.ok && result.errors).toContain("'service_feature_level'");
  });

  it('does not mutate the body when stripping extra keys', () => {
    const body = { ...goodBody('register_queue_200_response'), service_feature_level: 1 };
    validateResponse('POST', '/register', 200, body, { allowExtraKeys: ['service_feature_level'] });
    expect(body.service_feature_level).toBe(1);
  });
});

describe('GET /events (a large oneOf union)', () => {
  it('accepts a valid body', () => {
    expect(validateResponse('GET', '/events', 200, goodBody('get_events_200_response'))).toEqual({
      ok: true,
    });
  });

  it('reports the errors of the closest event shape only', () => {
    const body = {
      result: 'success',
      msg: '',
      queue_id: 'q',
      events: [
        { id: 0, type: 'heartbeat' },
        { id: 1, type: 'realm_user', op: 'update', person: { user_id: 3, full_name: 5 } },
      ],
    };
    const result = validateResponse('GET', '/events', 200, body);
    expect(result.ok).toBe(false);
    const errors = result.ok ? '' : result.errors;
    expect(errors).toContain('/events/1/person/full_name must be string');
    expect(errors).not.toContain('/events/0');
    // Not one line per alternative event type.
    expect(errors.split('\n').length).toBeLessThan(10);
  });

  it('flags an event type no alternative knows', () => {
    const body = {
      result: 'success',
      msg: '',
      queue_id: 'q',
      events: [{ id: 0, type: 'nonsense' }],
    };
    const result = validateResponse('GET', '/events', 200, body);
    expect(!result.ok && result.errors).toMatch(
      /\/events\/0 matches none of the \d+ alternatives; best guess/,
    );
  });
});

describe('reference quirks (documented, not worked around)', () => {
  it('GET /navigation_views does not allow ignored_parameters_unsupported', () => {
    // Unlike most responses, its `additionalProperties: false` member forgets to
    // re-declare this JsonSuccessBase key (same for POST /navigation_views and
    // POST /messages/flags/narrow).
    const body = { result: 'success', msg: '', navigation_views: [] };
    expect(validateResponse('GET', '/navigation_views', 200, body).ok).toBe(true);
    const withIgnored = { ...body, ignored_parameters_unsupported: ['x'] };
    expect(validateResponse('GET', '/navigation_views', 200, withIgnored).ok).toBe(false);
    expect(
      validateResponse('GET', '/users/me/alert_words', 200, {
        result: 'success',
        msg: '',
        alert_words: [],
        ignored_parameters_unsupported: ['x'],
      }),
    ).toEqual({ ok: true });
  });

  it('the 429 schema declares `retry-after` integer although Zulip sends a float', () => {
    const body = { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT' };
    expect(
      validateResponse('POST', '/rest-error-handling', 429, { ...body, 'retry-after': 28 }).ok,
    ).toBe(true);
    expect(
      validateResponse('POST', '/rest-error-handling', 429, { ...body, 'retry-after': 28.7 }).ok,
    ).toBe(false);
  });
});

describe('reference coverage', () => {
  it('compiles every documented JSON response schema', () => {
    let count = 0;
    for (const [template, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const status of Object.keys(op.responses)) {
          // Integer path parameters need digits; string ones take anything.
          const path = template.replace(/\{[^}]+\}/g, '1');
          if (!/^\d+$/.test(status) || !hasResponseSchema(method, path, Number(status))) continue;
          // Must not throw (e.g. on an unconvertible schema); the outcome does not matter.
          validateResponse(method, path, Number(status), {});
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(150);
  });
});
