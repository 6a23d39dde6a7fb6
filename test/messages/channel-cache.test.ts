import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupByName } from '../../server/db/queries/user-groups.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const send = (to: string | number) =>
  t.as('member').post('/messages', { type: 'stream', to, topic: 'cache', content: 'hi' });

// Sends keep the channel rows they resolve (messages/channel-cache.ts) until
// the streams table is written: each change below follows a send that
// cached the row it makes stale.
describe('the channel a send resolves, send after send', () => {
  it('follows a rename, by name and by id', async () => {
    const id = createChannel(t, { name: 'cache alpha', subscribers: [t.accounts.member.id] });
    expect((await send('cache alpha')).status).toBe(200);
    expect((await send(id)).status).toBe(200);
    const renamed = await t.as('admin').patch(`/streams/${id}`, { new_name: 'cache beta' });
    expect(renamed.status).toBe(200);
    const old = await send('cache alpha');
    expect(old.body).toMatchObject({
      code: 'STREAM_DOES_NOT_EXIST',
      msg: "Channel 'cache alpha' does not exist",
    });
    expect((await send('cache beta')).status).toBe(200);
    expect((await send(id)).status).toBe(200);
  });

  it('follows a change of who may post', async () => {
    const id = createChannel(t, { name: 'cache gamma', subscribers: [t.accounts.member.id] });
    expect((await send(id)).status).toBe(200);
    const admins = groupByName(t.server.ctx.db, 'role:administrators')!.id;
    const changed = await t
      .as('admin')
      .patch(`/streams/${id}`, { can_send_message_group: { new: admins } });
    expect(changed.status).toBe(200);
    expect((await send(id)).body.msg).toBe('You do not have permission to post in this channel.');
  });

  it('finds a channel created after a send looked for it in vain', async () => {
    expect((await send('cache delta')).body.code).toBe('STREAM_DOES_NOT_EXIST');
    createChannel(t, { name: 'cache delta', subscribers: [t.accounts.member.id] });
    expect((await send('cache delta')).status).toBe(200);
  });
});
