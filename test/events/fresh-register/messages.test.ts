/**
 * Messages, proven by a fresh register: sending, editing, moving, deleting,
 * reactions and flags, as each observer's register and the chat's state see them.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createChannel } from '../../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../../helpers/messages.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { checkAction } from './harness.js';

let t: TestServer;
let lounge: number;
let quiet: number;
beforeAll(async () => {
  t = await startTestServer();
  const { owner, admin, member, guest } = t.accounts;
  lounge = createChannel(t, {
    name: 'lounge',
    subscribers: [owner.id, admin.id, member.id, guest.id],
  });
  quiet = createChannel(t, { name: 'quiet', subscribers: [owner.id, member.id] });
});
afterAll(() => t.close());

/**
 * After a deletion Zulip's apply_event re-reads max_message_id and the
 * recent direct-message conversations from the database: no event carries
 * them, so neither is compared.
 */
const AFTER_DELETION = { ignore: ['max_message_id', 'recent_private_conversations'] };

const expectOk = (res: { status: number; body: unknown }) => {
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
};

describe('sending', () => {
  it('a channel message', async () => {
    await checkAction(t, ['owner', 'member', 'guest'], () =>
      sendToChannel(t, 'admin', lounge, 'greetings', 'hello all'),
    );
  });

  it('a channel message mentioning someone', async () => {
    await checkAction(t, ['owner', 'member'], () =>
      sendToChannel(t, 'admin', lounge, 'greetings', 'hi @**Mel Member**'),
    );
  });

  it('a channel message with a wildcard mention', async () => {
    await checkAction(t, ['owner', 'member'], () =>
      sendToChannel(t, 'admin', lounge, 'all hands', 'hi @**all**'),
    );
  });

  it('wildcard mentions where the member muted the channel, or followed the topic', async () => {
    const muted = createChannel(t, {
      name: 'muted',
      subscribers: [t.accounts.admin.id, t.accounts.member.id],
    });
    expectOk(
      await t.as('member').post('/users/me/subscriptions/properties', {
        subscription_data: [{ stream_id: muted, property: 'is_muted', value: true }],
      }),
    );
    expectOk(
      await t
        .as('member')
        .post('/user_topics', { stream_id: muted, topic: 'followed', visibility_policy: 3 }),
    );
    await checkAction(t, ['member'], async () => {
      await sendToChannel(t, 'admin', muted, 'ignored', 'hi @**all**');
      await sendToChannel(t, 'admin', muted, 'followed', 'hi @**all**');
      await sendToChannel(t, 'admin', muted, 'ignored', 'hi @**Mel Member**');
    });
  });

  it('a direct message and a group direct message', async () => {
    await checkAction(t, ['owner', 'member', 'admin'], async () => {
      await sendDirect(t, 'admin', [t.accounts.member.id]);
      await sendDirect(t, 'admin', [t.accounts.member.id, t.accounts.owner.id]);
    });
  });

  it('a message to oneself', async () => {
    await checkAction(t, ['member'], () => sendDirect(t, 'member', [t.accounts.member.id]));
  });
});

describe('editing and moving', () => {
  it('editing content', async () => {
    const id = await sendToChannel(t, 'member', lounge, 'edits', 'first');
    await checkAction(
      t,
      ['owner', 'member'],
      async () => expectOk(await t.as('member').patch(`/messages/${id}`, { content: 'second' })),
      { unchanged: true },
    );
  });

  it('moving a topic', async () => {
    const id = await sendToChannel(t, 'admin', lounge, 'old topic', 'to move');
    await checkAction(t, ['owner', 'member'], async () =>
      expectOk(
        await t
          .as('owner')
          .patch(`/messages/${id}`, { topic: 'new topic', propagate_mode: 'change_all' }),
      ),
    );
  });

  it('moving to another channel', async () => {
    const id = await sendToChannel(t, 'admin', lounge, 'wanderer', 'to move');
    await checkAction(
      t,
      ['owner', 'member', 'guest'],
      async () =>
        expectOk(
          await t.as('owner').patch(`/messages/${id}`, {
            stream_id: quiet,
            propagate_mode: 'change_all',
          }),
        ),
      // The guest, not in the new channel, loses the message: a delete_message.
      AFTER_DELETION,
    );
  });

  it('resolving a topic', async () => {
    const id = await sendToChannel(t, 'admin', lounge, 'question', 'why?');
    await checkAction(t, ['owner', 'member'], async () =>
      expectOk(
        await t
          .as('owner')
          .patch(`/messages/${id}`, { topic: '✔ question', propagate_mode: 'change_all' }),
      ),
    );
  });
});

describe('deleting', () => {
  it('a channel message', async () => {
    await sendToChannel(t, 'admin', lounge, 'doomed', 'keep');
    const id = await sendToChannel(t, 'admin', lounge, 'doomed', 'to delete');
    await checkAction(
      t,
      ['owner', 'member'],
      async () => expectOk(await t.as('owner').delete(`/messages/${id}`)),
      AFTER_DELETION,
    );
  });

  it('a direct message', async () => {
    await sendDirect(t, 'admin', [t.accounts.member.id], 'older');
    const id = await sendDirect(t, 'admin', [t.accounts.member.id], 'to delete');
    await checkAction(
      t,
      ['admin', 'member'],
      async () => expectOk(await t.as('admin').delete(`/messages/${id}`)),
      AFTER_DELETION,
    );
  });

  it('a whole topic', async () => {
    await sendToChannel(t, 'admin', lounge, 'to clear', 'one');
    await sendToChannel(t, 'admin', lounge, 'to clear', 'two');
    await checkAction(
      t,
      ['owner', 'member'],
      async () =>
        expectOk(
          await t.as('owner').post(`/streams/${lounge}/delete_topic`, { topic_name: 'to clear' }),
        ),
      AFTER_DELETION,
    );
  });
});

describe('reactions', () => {
  it('adding and removing one', async () => {
    const id = await sendToChannel(t, 'admin', lounge, 'reacts', 'react to me');
    await checkAction(
      t,
      ['owner', 'member'],
      async () => {
        expectOk(await t.as('member').post(`/messages/${id}/reactions`, { emoji_name: 'smile' }));
        expectOk(await t.as('owner').post(`/messages/${id}/reactions`, { emoji_name: 'tada' }));
        expectOk(await t.as('owner').delete(`/messages/${id}/reactions`, { emoji_name: 'tada' }));
      },
      { unchanged: true },
    );
  });
});

describe('flags', () => {
  it('marking read and unread', async () => {
    const a = await sendToChannel(t, 'admin', lounge, 'flags', 'one @**Mel Member**');
    const b = await sendDirect(t, 'admin', [t.accounts.member.id], 'two');
    const c = await sendDirect(t, 'admin', [t.accounts.member.id, t.accounts.owner.id], 'three');
    await checkAction(t, ['member'], async () =>
      expectOk(
        await t
          .as('member')
          .post('/messages/flags', { messages: [a, b, c], op: 'add', flag: 'read' }),
      ),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(
        await t
          .as('member')
          .post('/messages/flags', { messages: [a, b, c], op: 'remove', flag: 'read' }),
      ),
    );
  });

  it('starring and unstarring', async () => {
    const a = await sendToChannel(t, 'admin', lounge, 'stars', 'shiny');
    const b = await sendToChannel(t, 'admin', lounge, 'stars', 'shinier');
    await checkAction(t, ['member'], async () =>
      expectOk(
        await t
          .as('member')
          .post('/messages/flags', { messages: [a, b], op: 'add', flag: 'starred' }),
      ),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(
        await t
          .as('member')
          .post('/messages/flags', { messages: [a], op: 'remove', flag: 'starred' }),
      ),
    );
  });

  it('marking a topic, a channel and everything read', async () => {
    await sendToChannel(t, 'admin', lounge, 'bulk', 'unread one');
    await sendToChannel(t, 'admin', quiet, 'bulk', 'unread two');
    await sendToChannel(t, 'owner', quiet, 'other', 'unread three');
    await checkAction(t, ['member'], async () =>
      expectOk(
        await t.as('member').post('/mark_topic_as_read', { stream_id: lounge, topic_name: 'bulk' }),
      ),
    );
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').post('/mark_stream_as_read', { stream_id: quiet })),
    );
    await sendDirect(t, 'admin', [t.accounts.member.id], 'unread dm');
    await checkAction(t, ['member'], async () =>
      expectOk(await t.as('member').post('/mark_all_as_read')),
    );
  });
});

describe('what changes nothing in register', () => {
  it('typing notices', async () => {
    await checkAction(
      t,
      ['owner', 'member'],
      async () => {
        expectOk(
          await t
            .as('member')
            .post('/typing', { op: 'start', to: JSON.stringify([t.accounts.owner.id]) }),
        );
        expectOk(
          await t.as('member').post('/typing', {
            op: 'start',
            type: 'stream',
            stream_id: lounge,
            topic: 'greetings',
          }),
        );
        expectOk(
          await t
            .as('member')
            .post('/typing', { op: 'stop', to: JSON.stringify([t.accounts.owner.id]) }),
        );
      },
      { unchanged: true },
    );
  });

  it('a poll and a vote (submessages)', async () => {
    const id = await sendToChannel(
      t,
      'member',
      lounge,
      'polls',
      '/poll Tea or coffee?\nTea\nCoffee',
    );
    await checkAction(
      t,
      ['owner', 'member'],
      async () =>
        expectOk(
          await t.as('owner').post('/submessage', {
            message_id: id,
            msg_type: 'widget',
            content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }),
          }),
        ),
      { unchanged: true },
    );
  });
});
