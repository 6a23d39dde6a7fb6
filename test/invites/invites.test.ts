/**
 * Invitations: POST and GET /invites, POST /invites/multiuse, DELETE
 * /invites/{id} and /invites/multiuse/{id}, POST /invites/{id}/resend
 * (Zulip's invite.py and test_invite.py), the invites_changed event to
 * administrators and the inviter, and signing up through the page an
 * invitation link opens.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import {
  ApiClient,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
let counter = 0;
let lobby: number;
const everyone = ['admin', 'bot', 'guest', 'member', 'moderator', 'owner'];

beforeAll(async () => {
  t = await startTestServer();
  lobby = createChannel(t, {
    name: 'lobby',
    subscribers: [t.accounts.owner.id, t.accounts.member.id],
  });
  watchers = new Watchers(t);
  for (const who of everyone) await watchers.add(who);
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

const address = () => `invitee${++counter}@example.com`;

const invite = (who: FixtureName, params: Record<string, unknown>) =>
  t.as(who).post('/invites', { stream_ids: [], ...params });
const link = (who: FixtureName, params: Record<string, unknown> = {}) =>
  t.as(who).post('/invites/multiuse', params);

async function invites(who: FixtureName = 'admin') {
  const res = await t.as(who).get('/invites');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.invites as Array<Record<string, unknown>>;
}

/** Submits the sign-up form an invitation link opens. */
async function signUp(url: string, form: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, text: await res.text() };
}

async function logIn(email: string, password: string) {
  const res = await t.anonymous().post('/fetch_api_key', { username: email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new ApiClient(t.url, { email, apiKey: res.body.api_key });
}

describe('POST /invites', () => {
  it('stores an invitation per address; GET /invites shows it with its link', async () => {
    const a = address();
    const b = address();
    const res = await invite('member', { invitee_emails: `${a}, Bee <${b}>`, stream_ids: [lobby] });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const mine = await invites('member');
    const now = Math.floor(Date.now() / 1000);
    expect(mine.map((i) => i.email).sort()).toEqual([a, b].sort());
    expect(mine[0]).toEqual({
      email: expect.any(String),
      invited_by_user_id: t.accounts.member.id,
      invited: expect.any(Number),
      expiry_date: expect.any(Number),
      id: expect.any(Number),
      invited_as: 400,
      is_multiuse: false,
      notify_referrer_on_join: true,
      link_url: expect.stringMatching(new RegExp(`^${t.url}/accounts/do_confirm/[a-z2-7]{24}$`)),
    });
    // Ten days, Zulip's default.
    expect((mine[0]!.expiry_date as number) - now).toBeGreaterThan(10 * 86400 - 60);
    const events = await watchers.take('invites_changed');
    expect(receivers(events)).toEqual(['admin', 'member', 'owner']);
    expect(events.member).toEqual([{ id: expect.any(Number), type: 'invites_changed' }]);
  });

  it('administrators see everyone’s invitations; others only their own', async () => {
    const a = address();
    await invite('moderator', { invitee_emails: a });
    expect((await invites('admin')).some((i) => i.email === a)).toBe(true);
    expect((await invites('member')).some((i) => i.email === a)).toBe(false);
    expect((await invites('moderator')).some((i) => i.email === a)).toBe(true);
  });

  it('refuses bad addresses and skips existing accounts, as Zulip says', async () => {
    const good = address();
    const bad = await invite('admin', { invitee_emails: `not-an-address, ${good}` });
    expectError(
      bad,
      400,
      'INVITATION_FAILED',
      "Some emails did not validate, so we didn't send any invitations.",
      {
        errors: [['not-an-address', 'Invalid address.', false]],
        sent_invitations: false,
        license_limit_reached: false,
        daily_limit_reached: false,
      },
    );
    expect((await invites()).some((i) => i.email === good)).toBe(false);

    const all = await invite('admin', { invitee_emails: t.accounts.member.email });
    expectError(all, 400, 'INVITATION_FAILED', "We weren't able to invite anyone.", {
      errors: [[t.accounts.member.email, 'Already has an account.', false]],
      sent_invitations: false,
      license_limit_reached: false,
      daily_limit_reached: false,
    });
    const some = await invite('admin', { invitee_emails: `${t.accounts.member.email}\n${good}` });
    expect(some.body).toMatchObject({ code: 'INVITATION_FAILED', sent_invitations: true });
    expect((await invites()).some((i) => i.email === good)).toBe(true);
  });

  it('checks roles: staff roles by administrators, owners by owners; no guests or bots', async () => {
    expectError(
      await invite('member', { invitee_emails: address(), invite_as: 200 }),
      400,
      'BAD_REQUEST',
      'Must be an organization administrator',
    );
    expectError(
      await invite('admin', { invitee_emails: address(), invite_as: 100 }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expect((await invite('owner', { invitee_emails: address(), invite_as: 100 })).status).toBe(200);
    expectError(
      await invite('admin', { invitee_emails: address(), invite_as: 500 }),
      400,
      'BAD_REQUEST',
      'Invalid invite_as',
    );
    expectError(
      await invite('guest', { invitee_emails: address() }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    expectError(
      await invite('bot', { invitee_emails: address() }),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
    expectError(
      await invite('admin', { invitee_emails: '' }),
      400,
      'BAD_REQUEST',
      'You must specify at least one email address.',
    );
    expectError(
      await invite('member', { invitee_emails: address(), welcome_message_custom_text: 'Hi' }),
      400,
      'BAD_REQUEST',
      'Must be an organization administrator',
    );
  });

  it('checks the channels', async () => {
    const secret = createChannel(t, {
      name: `secret ${++counter}`,
      private: true,
      subscribers: [t.accounts.owner.id],
    });
    expectError(
      await invite('member', { invitee_emails: address(), stream_ids: [secret] }),
      400,
      'BAD_REQUEST',
      `Invalid channel ID ${secret}. No invites were sent.`,
    );
    expectError(
      await invite('member', { invitee_emails: address(), stream_ids: [987654] }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID 987654. No invites were sent.',
    );
  });
});

describe('POST /invites/multiuse', () => {
  it('makes a reusable link (administrators by default), listed with its link', async () => {
    const res = await link('admin', { invite_expires_in_minutes: 60, invite_as: 600 });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      invite_link: expect.stringMatching(new RegExp(`^${t.url}/join/[a-z2-7]{24}/$`)),
    });
    const listed = (await invites()).find((i) => i.link_url === res.body.invite_link);
    expect(listed).toEqual({
      invited_by_user_id: t.accounts.admin.id,
      invited: expect.any(Number),
      expiry_date: (listed!.invited as number) + 3600,
      id: expect.any(Number),
      link_url: res.body.invite_link,
      invited_as: 600,
      is_multiuse: true,
    });
    expect(receivers(await watchers.take('invites_changed'))).toEqual(['admin', 'owner']);
  });

  it('never expires when asked', async () => {
    const res = await link('owner', { invite_expires_in_minutes: null });
    const listed = (await invites()).find((i) => i.link_url === res.body.invite_link);
    expect(listed!.expiry_date).toBeNull();
  });

  it('is refused to members by default (create_multiuse_invite_group)', async () => {
    expectError(await link('member'), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectError(await link('moderator'), 400, 'BAD_REQUEST', 'Insufficient permission');
  });
});

describe('revoking and resending', () => {
  it('DELETE /invites/{id} revokes an e-mail invitation; its link stops working', async () => {
    const a = address();
    await invite('member', { invitee_emails: a });
    const inv = (await invites('member')).find((i) => i.email === a)!;
    await watchers.clear();
    expectError(
      await t.as('moderator').delete(`/invites/${inv.id}`),
      400,
      'BAD_REQUEST',
      'Must be an organization administrator',
    );
    expect((await t.as('member').post(`/invites/${inv.id}/resend`)).status).toBe(200);
    expect((await t.as('member').delete(`/invites/${inv.id}`)).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect(receivers(await watchers.take('invites_changed'))).toEqual(['admin', 'member', 'owner']);
    expect((await invites('member')).some((i) => i.id === inv.id)).toBe(false);
    expectError(
      await t.as('member').delete(`/invites/${inv.id}`),
      400,
      'BAD_REQUEST',
      'No such invitation',
    );
    const page = await fetch(inv.link_url as string);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('not valid');
  });

  it('DELETE /invites/multiuse/{id} revokes a link, once', async () => {
    const made = await link('admin');
    const inv = (await invites()).find((i) => i.link_url === made.body.invite_link)!;
    expectError(
      await t.as('admin').delete(`/invites/${inv.id}`),
      400,
      'BAD_REQUEST',
      'No such invitation',
    );
    expect((await t.as('owner').delete(`/invites/multiuse/${inv.id}`)).status).toBe(200);
    expectError(
      await t.as('owner').delete(`/invites/multiuse/${inv.id}`),
      400,
      'BAD_REQUEST',
      'Invitation has already been revoked',
    );
    expectError(
      await t.as('owner').delete('/invites/multiuse/987654'),
      400,
      'BAD_REQUEST',
      'No such invitation',
    );
    expectError(
      await t.as('owner').post('/invites/987654/resend'),
      400,
      'BAD_REQUEST',
      'No such invitation',
    );
  });
});

describe('signing up with an invitation', () => {
  it('an e-mail invitation makes the account once, with its role and channels; the inviter hears', async () => {
    const a = address();
    await invite('member', { invitee_emails: a, stream_ids: [lobby] });
    const inv = (await invites('member')).find((i) => i.email === a)!;
    const form = await fetch(inv.link_url as string);
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('Join Test Org');
    expect(html).toContain(a);
    await watchers.clear();

    const res = await signUp(inv.link_url as string, {
      full_name: 'Ivy Invited',
      password: 'a long enough password',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('Welcome to Test Org');
    const ivy = await logIn(a, 'a long enough password');
    const me = (await ivy.get('/users/me')).body;
    expect(me).toMatchObject({ full_name: 'Ivy Invited', role: 400 });
    const subs = (await ivy.get('/users/me/subscriptions')).body.subscriptions;
    expect(subs.map((s: { name: string }) => s.name)).toEqual(['lobby']);

    const events = await watchers.take();
    expect(receivers(events, (e) => e.type === 'realm_user' && e.op === 'add')).toEqual(everyone);
    expect(receivers(events, (e) => e.type === 'invites_changed')).toEqual([
      'admin',
      'member',
      'owner',
    ]);
    const note = events.member!.find((e) => e.type === 'message');
    expect(note.message.content).toContain('accepted your invitation to join Test Org!');
    expect(note.message.sender_full_name).toBe('Notification Bot');

    expect((await invites('member')).some((i) => i.id === inv.id)).toBe(false);
    const again = await signUp(inv.link_url as string, {
      full_name: 'Ivy Again',
      password: 'a long enough password',
    });
    expect(again.status).toBe(404);
  });

  it('refuses a weak password with the rule every password meets, and makes no account', async () => {
    const a = address();
    await invite('member', { invitee_emails: a, stream_ids: [lobby] });
    const inv = (await invites('member')).find((i) => i.email === a)!;
    for (const password of ['123456', a]) {
      const res = await signUp(inv.link_url as string, { full_name: 'Wes Weak', password });
      expect(res.status).toBe(400);
      expect(res.text).toContain('The password is too weak.');
    }
    const users = (await t.as('owner').get('/users')).body.members as { email: string }[];
    expect(users.some((u) => u.email === a)).toBe(false);
  });

  it('a reusable link takes the address from the form, for several people, with its role', async () => {
    const made = await link('owner', { invite_as: 300, include_realm_default_subscriptions: true });
    for (const name of ['Lin One', 'Lin Two']) {
      const email = address();
      const res = await signUp(made.body.invite_link, {
        email,
        full_name: name,
        password: 'a long enough password',
      });
      expect(res.status, res.text).toBe(200);
      const me = (await (await logIn(email, 'a long enough password')).get('/users/me')).body;
      expect(me).toMatchObject({ full_name: name, role: 300 });
    }
  });

  it('shows what is wrong and keeps what was typed', async () => {
    const made = await link('owner');
    const taken = await signUp(made.body.invite_link, {
      email: t.accounts.member.email,
      full_name: 'Copy Cat',
      password: 'a long enough password',
    });
    expect(taken.status).toBe(400);
    expect(taken.text).toContain('already in use');
    expect(taken.text).toContain('value="Copy Cat"');
    const badName = await signUp(made.body.invite_link, {
      email: address(),
      full_name: '',
      password: 'x',
    });
    expect(badName.status).toBe(400);
    expect(badName.text).toContain('Name too short!');
  });

  it('an expired link is refused', async () => {
    const made = await link('owner', { invite_expires_in_minutes: -1 });
    expect((await fetch(made.body.invite_link)).status).toBe(404);
    const res = await signUp(made.body.invite_link, {
      email: address(),
      full_name: 'Late',
      password: 'a long enough password',
    });
    expect(res.status).toBe(404);
  });

  it('POST /users for an invited address spends the invitation', async () => {
    const a = address();
    await invite('admin', { invitee_emails: a });
    expect(
      (
        await t
          .as('admin')
          .post('/users', { email: a, password: 'a long enough password', full_name: 'Direct Add' })
      ).status,
    ).toBe(200);
    expect((await invites()).some((i) => i.email === a)).toBe(false);
  });
});
