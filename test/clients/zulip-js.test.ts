import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

// zulip-js is CommonJS and ships no types; the test uses it exactly as a bot author would.
const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: untyped third-party client
type ZulipClient = any;
const zulipInit = require('zulip-js') as (config: {
  username: string;
  apiKey: string;
  realm: string;
}) => Promise<ZulipClient>;

let t: TestServer;
let alice: ZulipClient;
let bob: ZulipClient;

beforeAll(async () => {
  t = await startTestServer();
  alice = await zulipInit({
    username: t.accounts.member.email,
    apiKey: t.accounts.member.apiKey,
    realm: t.url,
  });
  bob = await zulipInit({
    username: t.accounts.admin.email,
    apiKey: t.accounts.admin.apiKey,
    realm: t.url,
  });
});
afterAll(() => t.close());

describe('zulip-js, a real third-party client, against Hearth', () => {
  it('registers, subscribes, sends, receives, fetches, edits, reads history and marks read', async () => {
    // Register an event queue the way zulip-js's callOnEachEvent does.
    const queue = await bob.queues.register({ event_types: ['message', 'update_message'] });
    expect(queue.result).toBe('success');

    // Both subscribe (zulip-js passes the list pre-stringified, as its README shows).
    for (const client of [alice, bob]) {
      const sub = await client.users.me.subscriptions.add({
        subscriptions: JSON.stringify([{ name: 'js-client' }]),
      });
      expect(sub.result).toBe('success');
    }

    // zulip-js POSTs multipart and uses the legacy `subject`.
    const sent = await alice.messages.send({
      to: 'js-client',
      type: 'stream',
      subject: 'core flow',
      content: 'Hello from **zulip-js**',
    });
    expect(sent.result).toBe('success');
    const messageId: number = sent.id;

    // The event arrives on Bob's queue.
    const polled = await bob.events.retrieve({
      queue_id: queue.queue_id,
      last_event_id: queue.last_event_id,
      dont_block: true,
    });
    expect(polled.result).toBe('success');
    const messageEvent = polled.events.find((e: { type: string }) => e.type === 'message');
    expect(messageEvent.message.id).toBe(messageId);
    expect(messageEvent.message.subject).toBe('core flow');
    expect(messageEvent.flags).not.toContain('read');

    // Fetch with a narrow (zulip-js stringifies it; anchor above the max id means newest).
    const fetched = await bob.messages.retrieve({
      anchor: 1000000000,
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'stream', operand: 'js-client' },
        { operator: 'topic', operand: 'core flow' },
      ],
    });
    expect(fetched.result).toBe('success');
    expect(fetched.messages.map((m: { id: number }) => m.id)).toEqual([messageId]);
    expect(fetched.messages[0].content).toContain('<strong>zulip-js</strong>');

    // Edit: zulip-js sends PATCH parameters in the query string.
    const edited = await alice.messages.update({ message_id: messageId, content: 'Hello again' });
    expect(edited.result).toBe('success');

    const history = await bob.messages.getHistoryById({ message_id: messageId });
    expect(history.result).toBe('success');
    expect(history.message_history.map((h: { content: string }) => h.content)).toEqual([
      'Hello from **zulip-js**',
      'Hello again',
    ]);
    expect(history.message_history[1].prev_content).toBe('Hello from **zulip-js**');

    const update = await bob.events.retrieve({
      queue_id: queue.queue_id,
      last_event_id: messageEvent.id,
      dont_block: true,
    });
    expect(
      update.events.some(
        (e: { type: string; message_id?: number }) =>
          e.type === 'update_message' && e.message_id === messageId,
      ),
    ).toBe(true);

    // Mark read, then the message carries the read flag.
    const marked = await bob.messages.flags.add({ flag: 'read', messages: [messageId] });
    expect(marked.result).toBe('success');
    const after = await bob.messages.getById({ message_id: messageId });
    expect(after.message.flags).toContain('read');

    await bob.queues.deregister({ queue_id: queue.queue_id });
  });
});

describe('zulip-js filters.retrieve', () => {
  it('reads the linkifiers in the legacy triple form', async () => {
    const added = await t.as('admin').post('/realm/filters', {
      pattern: '#(?P<id>[0-9]+)',
      url_template: 'https://tracker.example/{id}',
    });
    const res = await alice.filters.retrieve();
    expect(res).toEqual({
      result: 'success',
      msg: '',
      filters: [['#(?P<id>[0-9]+)', 'https://tracker.example/{id}', added.body.id]],
    });
  });
});
