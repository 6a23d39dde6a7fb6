/**
 * Browser sessions (server/auth/browser-session.ts): POST /chat/session
 * logs in with a password and sets an HttpOnly session cookie and a CSRF
 * cookie; the session then stands for its user on every route without an
 * Authorization header, changes need the X-CSRFToken header, and it ends
 * on log-out, after its idle and absolute limits, and when the user's key
 * or password changes or they (or the organization) are deactivated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deactivateOrganization } from '../../server/realm/index.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import {
  type Account,
  basicAuth,
  FIXTURE_PASSWORD,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { FakeClock } from '../messages/send-support.js';
import { uploadOk } from '../uploads/support.js';

const SESSION = 'hearth_session';
const CSRF = 'hearth_csrf';
const DAY = 24 * 60 * 60;
const THIRTY_DAYS = 30 * DAY;

let t: TestServer;
const clock = new FakeClock();
let general: number;
beforeAll(async () => {
  t = await startTestServer({ now: clock.now });
  general = createChannel(t, {
    name: 'general',
    subscribers: [t.accounts.owner.id, t.accounts.member.id],
  });
});
afterAll(() => t.close(), 60_000);

const at = (pathname: string, init: RequestInit = {}) =>
  fetch(new URL(pathname, t.url), { redirect: 'manual', ...init });

interface Session {
  token: string;
  csrf: string;
  cookie: string;
}

/** The attributes of the Set-Cookie for `name`, e.g. ['hearth_csrf=…', 'Path=/', …]. */
function setCookie(res: Response, name: string): string[] {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return line ? line.split(';').map((a) => a.trim()) : [];
}

/** POST /chat/session with e-mail and password, as the chat's login page does. */
async function logIn(account: { email: string }, password = FIXTURE_PASSWORD) {
  const res = await at('/chat/session', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: account.email, password }),
  });
  const body = await res.json();
  const token = setCookie(res, SESSION)[0]?.slice(SESSION.length + 1) ?? '';
  const csrf = setCookie(res, CSRF)[0]?.slice(CSRF.length + 1) ?? '';
  const session: Session = { token, csrf, cookie: `other=1; ${SESSION}=${token}; ${CSRF}=${csrf}` };
  return { res, body, session };
}

async function session(account: { email: string }): Promise<Session> {
  const { res, session } = await logIn(account);
  expect(res.status).toBe(200);
  return session;
}

/** A request with the session's cookies and, when given, a CSRF header; the body is read. */
async function withSession(
  s: Session,
  pathname: string,
  init: RequestInit & { csrf?: string | null } = {},
) {
  const { csrf = s.csrf, ...rest } = init;
  const headers: Record<string, string> = { cookie: s.cookie };
  if (csrf !== null) headers['x-csrftoken'] = csrf;
  const res = await at(pathname, { ...rest, headers: { ...headers, ...rest.headers } });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    // A file.
  }
  return { status: res.status, headers: res.headers, body };
}

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});
const sendMessage = (content: string) =>
  form({ type: 'stream', to: 'general', topic: 'session', content });

describe('POST /chat/session', () => {
  it('logs in with the password and sets the session and CSRF cookies', async () => {
    const { res, body, session } = await logIn(t.accounts.member);
    expect(res.status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      user_id: t.accounts.member.id,
      csrf_token: session.csrf,
    });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(session.token).toMatch(/^[\w-]{43}$/);
    expect(session.csrf).toMatch(/^[\w-]{43}$/);
    const sessionCookie = setCookie(res, SESSION);
    expect(sessionCookie).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${THIRTY_DAYS}`]),
    );
    // Served over plain http (the LAN): a Secure cookie would be dropped.
    expect(sessionCookie).not.toContain('Secure');
    const csrfCookie = setCookie(res, CSRF);
    expect(csrfCookie).toEqual(
      expect.arrayContaining(['Path=/', 'SameSite=Lax', `Max-Age=${THIRTY_DAYS}`]),
    );
    // The page reads this one.
    expect(csrfCookie).not.toContain('HttpOnly');
  });

  it('keeps only a digest of the token', async () => {
    const s = await session(t.accounts.member);
    const rows = t.server.ctx.db.prepare('SELECT * FROM browser_sessions').all();
    expect(JSON.stringify(rows)).not.toContain(s.token);
  });

  it('sets Secure cookies when clients reach the server over https (here: a proxy’s external URL)', async () => {
    // Over Hearth's own TLS: test/tls/https.test.ts and lan.test.ts.
    const { config } = t.server.ctx;
    const before = config.externalUrl;
    config.externalUrl = 'https://chat.example.org';
    config.givenExternalUrl = 'https://chat.example.org';
    try {
      const { res } = await logIn(t.accounts.member);
      expect(setCookie(res, SESSION)).toContain('Secure');
      expect(setCookie(res, CSRF)).toContain('Secure');
    } finally {
      config.externalUrl = before;
      config.givenExternalUrl = undefined;
    }
  });

  it('answers a wrong password as /fetch_api_key does, and sets no cookie', async () => {
    const { res, body } = await logIn(t.accounts.member, 'not the password');
    expect(res.status).toBe(401);
    expect(body).toMatchObject({ code: 'AUTHENTICATION_FAILED' });
    expect(res.headers.getSetCookie()).toEqual([]);
    const missing = await at('/chat/session', { method: 'POST', ...form({ username: 'x' }) });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'password',
    });
  });
});

describe('a session as credentials', () => {
  it('reads without the CSRF header, files included', async () => {
    const s = await session(t.accounts.member);
    const me = await withSession(s, '/api/v1/users/me', { csrf: null });
    expect(me.status).toBe(200);
    expect(me.body.user_id).toBe(t.accounts.member.id);
    const { url } = await uploadOk(t.as('owner'), 'shared', 'shared.txt', 'text/plain');
    await sendToChannel(t, 'owner', general, 'files', `[shared](${url})`);
    expect((await withSession(s, url, { csrf: null })).status).toBe(200);
    expect((await withSession(s, url, { csrf: null, method: 'HEAD' })).status).toBe(200);
  });

  it('changes nothing without the CSRF header, or with a wrong one', async () => {
    const s = await session(t.accounts.member);
    const before = t.server.ctx.db.prepare('SELECT count(*) AS n FROM messages').get();
    const missing = await withSession(s, '/api/v1/messages', {
      method: 'POST',
      csrf: null,
      ...sendMessage('forged'),
    });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({
      result: 'error',
      code: 'CSRF_FAILED',
      msg: 'CSRF error: CSRF token missing.',
      reason: 'CSRF token missing.',
    });
    const other = await session(t.accounts.owner);
    const wrong = await withSession(s, '/api/v1/messages', {
      method: 'POST',
      csrf: other.csrf,
      ...sendMessage('forged'),
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: 'CSRF_FAILED', reason: 'CSRF token incorrect.' });
    for (const [method, pathname] of [
      ['PATCH', '/api/v1/settings'],
      ['DELETE', '/api/v1/users/me/alert_words'],
      ['POST', '/api/v1/users/me/api_key/regenerate'],
    ]) {
      const res = await withSession(s, pathname!, { method, csrf: null });
      expect(res.status, `${method} ${pathname}`).toBe(403);
    }
    expect(t.server.ctx.db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual(before);

    const sent = await withSession(s, '/api/v1/messages', {
      method: 'POST',
      ...sendMessage('with the token'),
    });
    expect(sent.status).toBe(200);
  });

  it('refuses a cross-origin request that has the cookie but not the token', async () => {
    const s = await session(t.accounts.member);
    const res = await withSession(s, '/api/v1/users/me/alert_words', {
      method: 'POST',
      csrf: null,
      headers: {
        origin: 'http://evil.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ alert_words: '["pwned"]' }),
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'CSRF_FAILED' });
    // Nor may another site read what this server answers.
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const words = await t.as('member').get('/users/me/alert_words');
    expect(words.body.alert_words).not.toContain('pwned');
  });

  it('gives way to an Authorization header', async () => {
    const s = await session(t.accounts.member);
    const res = await withSession(s, '/api/v1/users/me', {
      headers: { authorization: basicAuth(t.accounts.owner.email, t.accounts.owner.apiKey) },
    });
    expect(res.body.user_id).toBe(t.accounts.owner.id);
  });

  it('is not logged in when unknown, with the Session challenge (no password prompt)', async () => {
    for (const token of ['', 'garbage', 'x'.repeat(43)]) {
      const res = await at('/api/v1/users/me', { headers: { cookie: `${SESSION}=${token}` } });
      expect(res.status, token).toBe(401);
      expect(await res.json()).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
      if (token) expect(res.headers.get('www-authenticate')).toBe('Session realm="zulip"');
    }
  });
});

describe('expiry', () => {
  it('ends a session unused for two weeks; use keeps it going', async () => {
    const idle = await session(t.accounts.member);
    const used = await session(t.accounts.member);
    clock.advance(13 * DAY);
    expect((await withSession(used, '/api/v1/users/me')).status).toBe(200);
    clock.advance(DAY);
    expect((await withSession(idle, '/api/v1/users/me')).status).toBe(401);
    expect((await withSession(used, '/api/v1/users/me')).status).toBe(200);
  });

  it('ends every session thirty days after its log-in, however much it is used', async () => {
    const s = await session(t.accounts.member);
    for (let week = 1; week <= 4; week++) {
      clock.advance(7 * DAY);
      expect((await withSession(s, '/api/v1/users/me')).status, `week ${week}`).toBe(200);
    }
    clock.advance(2 * DAY);
    expect((await withSession(s, '/api/v1/users/me')).status).toBe(401);
  });
});

describe('DELETE /chat/session (log out)', () => {
  it('ends the session on the server and clears both cookies', async () => {
    const s = await session(t.accounts.member);
    const res = await withSession(s, '/chat/session', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const cleared = res.headers.getSetCookie().map((c) => c.split(';').map((a) => a.trim()));
    expect(cleared.map((c) => c[0])).toEqual([`${SESSION}=`, `${CSRF}=`]);
    for (const c of cleared) expect(c).toContain('Max-Age=0');
    // Replaying the old cookie does not bring it back.
    expect((await withSession(s, '/api/v1/users/me')).status).toBe(401);
  });

  it('needs the CSRF header: another site cannot log a user out', async () => {
    const s = await session(t.accounts.member);
    const res = await withSession(s, '/chat/session', { method: 'DELETE', csrf: null });
    expect(res.status).toBe(403);
    expect((await withSession(s, '/api/v1/users/me')).status).toBe(200);
  });

  it('clears the cookies without a live session', async () => {
    const res = await at('/chat/session', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toHaveLength(2);
  });
});

describe('sessions end', () => {
  const alive = async (s: Session) => (await withSession(s, '/api/v1/users/me')).status === 200;

  it("when the user regenerates their API key, not other users' sessions", async () => {
    const account = await t.createMember('Key Changer');
    const mine = await session(account);
    const theirs = await session(t.accounts.member);
    const res = await withSession(mine, '/api/v1/users/me/api_key/regenerate', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await alive(mine)).toBe(false);
    expect(await alive(theirs)).toBe(true);
  });

  it('when the user changes their password', async () => {
    const account = await t.createMember('Password Changer');
    const s = await session(account);
    const res = await t
      .as(account)
      .patch('/settings', { old_password: FIXTURE_PASSWORD, new_password: 'another fine secret' });
    expect(res.status).toBe(200);
    expect(await alive(s)).toBe(false);
    expect((await logIn(account, 'another fine secret')).res.status).toBe(200);
  });

  it('but the one that changed the password, as Zulip keeps it (update_session_auth_hash)', async () => {
    const account = await t.createMember('Password Changer Here');
    const here = await session(account);
    const elsewhere = await session(account);
    const res = await withSession(here, '/api/v1/settings', {
      method: 'PATCH',
      ...form({ old_password: FIXTURE_PASSWORD, new_password: 'yet another fine secret' }),
    });
    expect(res.status).toBe(200);
    expect(await alive(here)).toBe(true);
    expect(await alive(elsewhere)).toBe(false);
    // The page keeps its CSRF token too: it can go on changing things.
    const after = await withSession(here, '/api/v1/messages', {
      method: 'POST',
      ...sendMessage('still here'),
    });
    expect(after.status).toBe(200);
  });

  it('when the user is deactivated, and reactivation does not bring them back', async () => {
    const account: Account = await t.createMember('Soon Gone');
    const s = await session(account);
    expect((await t.as('admin').delete(`/users/${account.id}`)).status).toBe(200);
    expect(await alive(s)).toBe(false);
    expect((await t.as('admin').post(`/users/${account.id}/reactivate`)).status).toBe(200);
    expect(await alive(s)).toBe(false);
  });
});

// After the tests that make users: the helper's own writes use the first run's context.
describe('a restart', () => {
  it('keeps sessions', async () => {
    const s = await session(t.accounts.member);
    await t.server.restart();
    expect((await withSession(s, '/api/v1/users/me')).status).toBe(200);
  });
});

describe('a deactivated organization', () => {
  it('ends every session', async () => {
    const s = await session(t.accounts.member);
    deactivateOrganization(t.server.ctx);
    expect((await withSession(s, '/api/v1/users/me')).status).toBe(401);
    const { db } = t.server.ctx;
    expect(db.prepare('SELECT count(*) AS n FROM browser_sessions').get()).toEqual({ n: 0 });
  });
});
