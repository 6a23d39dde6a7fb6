/**
 * Zulip never hands out an id twice: a client holding a deleted object's id
 * (or a late `remove` event for it) must not reach a newer object.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let general: number;

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false });
  general = createChannel(t, { name: 'general', subscribers: [t.accounts.owner.id] });
});
afterAll(() => t.close());

async function ok(res: Promise<{ status: number; body: Record<string, unknown> }>) {
  const { status, body } = await res;
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

/** Creates, deletes and creates again; the second id must be new. */
async function createDeleteCreate(
  create: (client: ApiClient, n: number) => Promise<number>,
  remove: (client: ApiClient, id: number) => Promise<unknown>,
) {
  const owner = t.as('owner');
  const first = await create(owner, 1);
  await remove(owner, first);
  const second = await create(owner, 2);
  expect(second).toBeGreaterThan(first);
}

describe('ids are never reused after deletion', () => {
  it('drafts', async () => {
    await createDeleteCreate(
      async (c, n) => {
        const body = await ok(
          c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: `d${n}` }] }),
        );
        return (body.ids as number[])[0]!;
      },
      (c, id) => ok(c.delete(`/drafts/${id}`)),
    );
  });

  it('scheduled messages', async () => {
    await createDeleteCreate(
      async (c, n) => {
        const body = await ok(
          c.post('/scheduled_messages', {
            type: 'stream',
            to: general,
            topic: 't',
            content: `s${n}`,
            scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600,
          }),
        );
        return body.scheduled_message_id as number;
      },
      (c, id) => ok(c.delete(`/scheduled_messages/${id}`)),
    );
  });

  it('custom profile fields', async () => {
    await createDeleteCreate(
      async (c, n) => {
        const body = await ok(c.post('/realm/profile_fields', { name: `F${n}`, field_type: 1 }));
        return body.id as number;
      },
      (c, id) => ok(c.delete(`/realm/profile_fields/${id}`)),
    );
  });

  it('code playgrounds', async () => {
    await createDeleteCreate(
      async (c, n) => {
        const body = await ok(
          c.post('/realm/playgrounds', {
            name: `P${n}`,
            pygments_language: 'python',
            url_template: 'https://play.test/?c={code}',
          }),
        );
        return body.id as number;
      },
      (c, id) => ok(c.delete(`/realm/playgrounds/${id}`)),
    );
  });

  it('allowed domains', async () => {
    const domains: Record<number, string> = {};
    await createDeleteCreate(
      async (c, n) => {
        const domain = `d${n}.example.org`;
        const body = await ok(c.post('/realm/domains', { domain, allow_subdomains: false }));
        const id = (body.new_domain as [number, string])[0];
        domains[id] = domain;
        return id;
      },
      (c, id) => ok(c.delete(`/realm/domains/${domains[id]}`)),
    );
  });
});
