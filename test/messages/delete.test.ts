import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { streamById } from '../../server/db/queries/streams.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendOk, streamMessage } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { editRows, FakeClock, flagRow, message, searchIds, setRealm } from './send-support.js';

const clock = new FakeClock();
let t: TestServer;
let general: number;
let secret: number;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer({ now: clock.now });
  watchers = new Watchers(t);
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.admin.id, a.member.id, a.bot.id],
  });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [a.owner.id] });
  const bulk = { client_capabilities: { bulk_message_deletion: true } };
  for (const who of ['owner', 'admin', 'member', 'guest'] as const) {
    await watchers.add(who, who, bulk);
  }
  await watchers.add('owner:legacy', 'owner');
});
afterAll(() => t.close());

beforeEach(async () => {
  setRealm(t, {
    message_content_delete_limit_seconds: 600,
    can_delete_own_message_group: 'role:everyone',
  });
  await watchers.clear();
});

type Who = 'owner' | 'admin' | 'member' | 'guest' | 'moderator';
const remove = (who: Who, id: number) => t.as(who).delete(`/messages/${id}`);

describe('DELETE /messages/{id}', () => {
  it('deletes the message with its search row, flags, reactions and history', async () => {
    const first = await sendOk(
      t.as('member'),
      streamMessage('general', 'bye', 'walrus @**Ada Admin**'),
    );
    const id = await sendOk(
      t.as('member'),
      streamMessage('general', 'bye', 'narwhal @**Ada Admin**'),
    );
    await t.as('owner').post(`/messages/${id}/reactions`, { emoji_name: 'wave' });
    await t.as('member').patch(`/messages/${id}`, { content: 'narwhal again @**Ada Admin**' });
    expect(flagRow(t, t.accounts.admin.id, id)).toBeDefined();
    await watchers.clear();

    const res = await remove('member', id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(message(t, id)).toBeUndefined();
    expect(searchIds(t, 'narwhal')).toEqual([]);
    expect(searchIds(t, 'walrus')).toEqual([first]);
    expect(flagRow(t, t.accounts.admin.id, id)).toBeUndefined();
    expect(editRows(t, id)).toEqual([]);
    const reactions = t.server.ctx.db
      .prepare('SELECT count(*) AS n FROM reactions WHERE message_id = ?')
      .get(id) as { n: number };
    expect(reactions.n).toBe(0);

    const events = await watchers.take('delete_message');
    expect(receivers(events)).toEqual(['admin', 'member', 'owner', 'owner:legacy']);
    expect(events.owner).toEqual([
      {
        id: expect.any(Number),
        type: 'delete_message',
        message_ids: [id],
        message_type: 'stream',
        stream_id: general,
        topic: 'bye',
      },
    ]);
    expect(events['owner:legacy']).toEqual([
      {
        id: expect.any(Number),
        type: 'delete_message',
        message_id: id,
        message_type: 'stream',
        stream_id: general,
        topic: 'bye',
      },
    ]);
    // Gone for good.
    expect((await remove('member', id)).body.msg).toBe('Invalid message(s)');
  });

  it("refuses other people's messages to those who may not delete any", async () => {
    const id = await sendOk(t.as('owner'), streamMessage('general', 'x', 'owned'));
    const res = await remove('member', id);
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: "You don't have permission to delete this message",
    });
    expect((await remove('admin', id)).status).toBe(200);
  });

  it("lets people delete their bots' messages", async () => {
    const id = await sendOk(t.as('bot'), streamMessage('general', 'x', 'beep'));
    expect((await remove('member', id)).status).toBe(200);
  });

  it('ends after the time limit, except for those who may delete anything', async () => {
    const id = await sendOk(t.as('member'), streamMessage('general', 'x', 'old news'));
    clock.advance(601);
    const res = await remove('member', id);
    expect(res.body.msg).toBe('The time limit for deleting this message has passed');
    expect((await remove('admin', id)).status).toBe(200);
  });

  it('follows can_delete_own_message_group, with the channel setting as a way out', async () => {
    setRealm(t, { can_delete_own_message_group: 'role:nobody' });
    const dm = await sendOk(t.as('member'), {
      type: 'direct',
      to: [t.accounts.owner.id],
      content: 'x',
    });
    expect((await remove('member', dm)).body.msg).toBe(
      "You don't have permission to delete this message",
    );
    const inChannel = await sendOk(t.as('member'), streamMessage('general', 'x', 'mine'));
    expect((await remove('member', inChannel)).status).toBe(400);
    t.server.ctx.db
      .prepare('UPDATE streams SET permissions = ? WHERE id = ?')
      .run(JSON.stringify({ can_delete_own_message_group: 'role:members' }), general);
    try {
      expect((await remove('member', inChannel)).status).toBe(200);
    } finally {
      t.server.ctx.db.prepare("UPDATE streams SET permissions = '{}' WHERE id = ?").run(general);
    }
  });

  it("honours the channel's can_delete_any_message_group", async () => {
    const id = await sendOk(t.as('owner'), streamMessage('general', 'x', 'owner wrote'));
    t.server.ctx.db
      .prepare('UPDATE streams SET permissions = ? WHERE id = ?')
      .run(JSON.stringify({ can_delete_any_message_group: 'role:members' }), general);
    try {
      expect((await remove('member', id)).status).toBe(200);
    } finally {
      t.server.ctx.db.prepare("UPDATE streams SET permissions = '{}' WHERE id = ?").run(general);
    }
  });

  it('refuses invisible or missing messages alike', async () => {
    const hidden = await sendOk(t.as('owner'), streamMessage(secret, 'x', 'hidden'));
    for (const id of [hidden, 999999]) {
      expect((await remove('admin', id)).body.msg).toBe('Invalid message(s)');
    }
  });

  it('tells the participants of a direct message', async () => {
    const id = await sendOk(t.as('member'), {
      type: 'direct',
      to: [t.accounts.guest.id],
      content: 'oops',
    });
    await watchers.clear();
    await remove('member', id);
    const events = await watchers.take('delete_message');
    expect(receivers(events)).toEqual(['guest', 'member']);
    expect(events.guest![0]).toEqual({
      id: expect.any(Number),
      type: 'delete_message',
      message_ids: [id],
      message_type: 'private',
    });
  });

  it("updates the channel's first message id", async () => {
    const fresh = createChannel(t, { name: 'fresh', subscribers: [t.accounts.member.id] });
    const first = await sendOk(t.as('member'), streamMessage(fresh, 'x', 'first'));
    const second = await sendOk(t.as('member'), streamMessage(fresh, 'x', 'second'));
    expect(streamById(t.server.ctx.db, fresh)!.first_message_id).toBe(first);
    await watchers.clear();
    await remove('member', first);
    expect(streamById(t.server.ctx.db, fresh)!.first_message_id).toBe(second);
    const events = await watchers.take('stream');
    // Everyone who may see the public channel hears of it (not the guest).
    expect(receivers(events)).toEqual(['admin', 'member', 'owner', 'owner:legacy']);
    expect(events.member![0]).toMatchObject({
      op: 'update',
      property: 'first_message_id',
      value: second,
      stream_id: fresh,
      name: 'fresh',
    });
  });
});
