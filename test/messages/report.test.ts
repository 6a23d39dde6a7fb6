import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import {
  type Account,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

type Who = FixtureName | Account;
let t: TestServer;
let third: Account;
let general: number; // public: member, admin, guest, third
let moderation: number; // private: admin, moderator
let secret: number; // private: admin only
let w: Watchers;

const report = (who: Who, id: number, params: Record<string, unknown>) =>
  t.as(who).post(`/messages/${id}/report`, params);
const setChannel = (id: number) =>
  t.server.ctx.db
    .prepare("UPDATE realm SET settings = json_set(settings, '$.moderation_request_channel_id', ?)")
    .run(id);
const mention = (a: Account, name: string) => `@_**${name}|${a.id}**`;
const names: Record<string, string> = {};
/** The newest message in the moderation channel, as the admin sees it. */
async function latestReport(): Promise<{
  content: string;
  subject: string;
  sender_full_name: string;
}> {
  const res = await t.as('admin').get('/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
    narrow: JSON.stringify([{ operator: 'channel', operand: moderation }]),
    apply_markdown: false,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages.at(-1);
}
const dateOf = async (id: number) => {
  const res = await t.as('admin').get(`/messages/${id}`);
  if (res.status === 200) return res.body.message.timestamp as number;
  const other = await t.as('member').get(`/messages/${id}`);
  return other.body.message.timestamp as number;
};
const timeSyntax = (seconds: number) =>
  `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;

beforeAll(async () => {
  t = await startTestServer();
  third = await t.createMember('Third Person');
  const { member, admin, guest, moderator } = t.accounts;
  for (const [key, account] of Object.entries(t.accounts)) {
    const res = await t.as('admin').get(`/users/${account.id}`);
    names[key] = res.body.user.full_name;
  }
  names.third = 'Third Person';
  general = createChannel(t, {
    name: 'general',
    subscribers: [member.id, admin.id, guest.id, third.id],
  });
  moderation = createChannel(t, {
    name: 'moderation',
    private: true,
    subscribers: [admin.id, moderator.id],
  });
  secret = createChannel(t, { name: 'secret', private: true, subscribers: [admin.id] });
  w = new Watchers(t);
  for (const name of ['member', 'admin', 'moderator', 'guest'] as const) await w.add(name);
});
afterAll(() => t.close());
beforeEach(async () => {
  setChannel(moderation);
  await w.clear();
});

describe('POST /messages/{id}/report', () => {
  it('posts a report of a channel message to the moderation channel', async () => {
    const id = await sendToChannel(t, 'member', general, 'lunch', 'rude words');
    await w.clear();
    const res = await report('guest', id, { report_type: 'harassment', description: 'Mean.' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const events = await w.take('message');
    expect(receivers(events)).toEqual(['admin', 'moderator']);
    const posted = await latestReport();
    expect(posted.sender_full_name).toBe('Notification Bot');
    expect(posted.subject).toBe(`${names.member} moderation`);
    const when = timeSyntax(await dateOf(id));
    expect(posted.content).toBe(
      `${mention(t.accounts.guest, names.guest!)} reported a message sent by ${mention(t.accounts.member, names.member!)} at ${when}.\n` +
        '```quote\n**Harassment**. Mean.\n```\n\n' +
        `\`\`\` spoiler Original message at #**general>lunch@${id}**\nrude words\n\`\`\``,
    );
  });

  it('labels each reason; the description may be empty except for "other"', async () => {
    const id = await sendToChannel(t, 'member', general, 'reasons', 'spammy');
    const labels: Record<string, string> = {
      spam: 'Spam',
      harassment: 'Harassment',
      inappropriate: 'Inappropriate content',
      norms: 'Violates community norms',
      other: 'Other reason',
    };
    for (const [type, label] of Object.entries(labels)) {
      const params =
        type === 'other' ? { report_type: type, description: 'why' } : { report_type: type };
      const res = await report('admin', id, params);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await latestReport()).content).toContain(`\`\`\`quote\n**${label}**. `);
    }
    expectError(
      await report('admin', id, { report_type: 'other' }),
      400,
      'BAD_REQUEST',
      'An explanation is required.',
    );
    expectError(
      await report('admin', id, { report_type: 'other', description: '' }),
      400,
      'BAD_REQUEST',
      'An explanation is required.',
    );
  });

  it('checks the parameters', async () => {
    const id = await sendToChannel(t, 'member', general, 'params', 'x');
    expectError(
      await report('admin', id, { report_type: 'rude' }),
      400,
      'BAD_REQUEST',
      'Invalid report_type',
    );
    // Zulip's missing-argument error carries var_name, which this endpoint's reference schema omits.
    const missing = await t.as('admin').post(`/messages/${id}/report`, {}, { skipSchema: true });
    expectError(missing, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'report_type' argument", {
      var_name: 'report_type',
    });
    expect(
      (await report('admin', id, { report_type: 'spam', description: 'é'.repeat(1000) })).status,
    ).toBe(200);
    expectError(
      await report('admin', id, { report_type: 'spam', description: 'é'.repeat(1001) }),
      400,
      'BAD_REQUEST',
      'description is too long (limit: 1000 characters)',
    );
  });

  it('refuses when no moderation channel is configured, before looking at the message', async () => {
    const id = await sendToChannel(t, 'member', general, 'off', 'x');
    await w.clear();
    setChannel(-1);
    const msg = 'Message reporting is not enabled in this organization.';
    expectError(await report('member', id, { report_type: 'spam' }), 400, 'BAD_REQUEST', msg);
    expectError(await report('member', 99999, { report_type: 'spam' }), 400, 'BAD_REQUEST', msg);
    expect(receivers(await w.take('message'))).toEqual([]);
  });

  it('requires access to the message', async () => {
    const hidden = await sendToChannel(t, 'admin', secret, 'x', 'hidden');
    expectError(
      await report('member', hidden, { report_type: 'spam' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
    expectError(
      await report('member', 99999, { report_type: 'spam' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
    const dm = await sendDirect(t, 'member', [third.id], 'private');
    await w.clear();
    expectError(
      await report('admin', dm, { report_type: 'spam' }),
      400,
      'BAD_REQUEST',
      'Invalid message(s)',
    );
    expect(receivers(await w.take('message'))).toEqual([]);
  });

  it('direct messages: 1:1 from someone else, own 1:1, note to self, group', async () => {
    const { member, guest } = t.accounts;
    const toGuest = await sendDirect(t, 'member', [guest.id], 'hey');
    expect((await report('guest', toGuest, { report_type: 'spam' })).status).toBe(200);
    let content = (await latestReport()).content;
    expect(content.split('\n')[0]).toBe(
      `${mention(guest, names.guest!)} reported a message sent by ${mention(member, names.member!)} at ${timeSyntax(await dateOf(toGuest))}.`,
    );
    const ids = [member.id, guest.id].sort((a, b) => a - b);
    expect(content).toContain(`/#narrow/dm/${ids.join(',')}/near/${toGuest})\nhey\n\`\`\``);

    expect((await report('member', toGuest, { report_type: 'spam' })).status).toBe(200);
    content = (await latestReport()).content;
    expect(content.split('\n')[0]).toContain(
      `reported a message sent by ${mention(member, names.member!)} to ${mention(guest, names.guest!)} at `,
    );

    const self = await sendDirect(t, 'member', [member.id], 'note');
    expect((await report('member', self, { report_type: 'spam' })).status).toBe(200);
    content = (await latestReport()).content;
    expect(content.split('\n')[0]).toContain(`to ${mention(member, names.member!)} at `);
    expect(content).toContain(`/#narrow/dm/${member.id}/near/${self}`);

    const group = await sendDirect(t, 'member', [guest.id, third.id], 'all of us');
    expect((await report(third, group, { report_type: 'norms' })).status).toBe(200);
    content = (await latestReport()).content;
    const others = [
      [guest, names.guest!],
      [third, 'Third Person'],
    ] as const;
    const sorted = [...others].sort((a, b) => a[0].id - b[0].id).map(([a, n]) => mention(a, n));
    expect(content.split('\n')[0]).toContain(`to ${sorted[0]} and ${sorted[1]} at `);
    expect(content).toContain('-group/near/');
  });

  it('the reporter sees the report as read when in the channel; the topic follows the sender', async () => {
    const id = await sendToChannel(t, 'moderator', general, 'x', 'by a moderator');
    await w.clear();
    expect((await report('admin', id, { report_type: 'spam' })).status).toBe(200);
    const events = await w.take('message');
    expect(events.admin![0].flags).toContain('read');
    expect(events.moderator![0].flags).not.toContain('read');
    expect(events.moderator![0].message.subject).toBe(`${names.moderator} moderation`);
  });

  it('uses a longer fence than the quoted message and truncates long messages', async () => {
    const body = 'start\n````\ncode\n````';
    const id = await sendToChannel(t, 'member', general, 'fence', body);
    expect((await report('admin', id, { report_type: 'spam' })).status).toBe(200);
    expect((await latestReport()).content).toContain(
      `\`\`\`\`\` spoiler Original message at #**general>fence@${id}**\n${body}\n\`\`\`\`\``,
    );
    const long = 'a'.repeat(9000);
    const longId = await sendToChannel(t, 'member', general, 'fence', long);
    expect((await report('admin', longId, { report_type: 'spam' })).status).toBe(200);
    const content = (await latestReport()).content;
    expect(content).toContain(`\n${'a'.repeat(8500 - 20)}\n[message truncated]\n\`\`\``);
  });

  it('a deleted moderation channel counts as not configured', async () => {
    const id = await sendToChannel(t, 'member', general, 'gone', 'x');
    setChannel(424242);
    expectError(
      await report('member', id, { report_type: 'spam' }),
      400,
      'BAD_REQUEST',
      'Message reporting is not enabled in this organization.',
    );
  });
});
