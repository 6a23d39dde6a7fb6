/**
 * The chat's image credentials: POST /chat/session trades Basic auth for a
 * cookie that GET/HEAD of /user_uploads/... accept, and nothing else does.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deactivateOrganization } from '../../server/realm/index.js';
import { createChannel, quickMember } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { type Account, basicAuth, startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../messages/send-support.js';
import { png, uploadOk } from '../uploads/support.js';

const COOKIE = 'hearth_chat_session';
const THIRTY_DAYS = 30 * 24 * 60 * 60;

let t: TestServer;
const clock = new FakeClock();
let general: number;
beforeAll(async () => {
  t = await startTestServer({ now: clock.now, adminToken: 'admin-token-for-tests' });
  general = createChannel(t, {
    name: 'general',
    subscribers: [t.accounts.owner.id, t.accounts.member.id],
  });
});
afterAll(() => t.close(), 60_000);

const at = (pathname: string, init: RequestInit = {}) =>
  fetch(new URL(pathname, t.url), { redirect: 'manual', ...init });

/** POST /chat/session as `account`; returns the response and the cookie's value. */
async function logIn(account: Account) {
  const res = await at('/chat/session', {
    method: 'POST',
    headers: { authorization: basicAuth(account.email, account.apiKey) },
  });
  const setCookie = res.headers.get('set-cookie') ?? '';
  const value = new RegExp(`^${COOKIE}=([^;]*)`).exec(setCookie)?.[1];
  return { res, setCookie, value: value!, body: await res.json() };
}

/** Fetches `pathname` with only the cookie as credentials; returns the status (body read). */
async function withCookie(value: string, pathname: string, init: RequestInit = {}) {
  const res = await at(pathname, {
    ...init,
    headers: { cookie: `other=1; ${COOKIE}=${value}`, ...init.headers },
  });
  await res.arrayBuffer();
  return res;
}
const statusWith = async (value: string, pathname: string, init?: RequestInit) =>
  (await withCookie(value, pathname, init)).status;

const ownerFile = async (name: string) =>
  (await uploadOk(t.as('owner'), `contents of ${name}`, name, 'text/plain')).url;

describe('POST /chat/session', () => {
  it('answers success and sets an HttpOnly, SameSite=Strict cookie for the whole site', async () => {
    const { res, setCookie, value, body } = await logIn(t.accounts.member);
    expect(res.status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(value).toMatch(/^\d+\.\d+\.[\w-]+$/);
    const attributes = setCookie.split(';').map((a) => a.trim());
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${THIRTY_DAYS}`]),
    );
    // Served over plain http (the LAN): a Secure cookie would be dropped.
    expect(attributes).not.toContain('Secure');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('is Secure when clients reach the server over https (here: a proxy’s external URL)', async () => {
    // Over Hearth's own TLS: test/tls/https.test.ts and lan.test.ts.
    const { config } = t.server.ctx;
    const before = config.externalUrl;
    config.externalUrl = 'https://chat.example.org';
    config.givenExternalUrl = 'https://chat.example.org';
    try {
      const { setCookie } = await logIn(t.accounts.member);
      expect(setCookie.split(';').map((a) => a.trim())).toContain('Secure');
    } finally {
      config.externalUrl = before;
      config.givenExternalUrl = undefined;
    }
  });

  it('needs valid Basic credentials, and sets no cookie without them', async () => {
    const missing = await at('/chat/session', { method: 'POST' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    expect(missing.headers.get('set-cookie')).toBeNull();
    const wrong = await at('/chat/session', {
      method: 'POST',
      headers: { authorization: basicAuth(t.accounts.member.email, 'not-the-key') },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'INVALID_API_KEY' });
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('is not itself a door a cookie opens', async () => {
    const { value } = await logIn(t.accounts.member);
    const res = await withCookie(value, '/chat/session', { method: 'POST' });
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});

describe('DELETE /chat/session', () => {
  it('clears the cookie, without needing credentials', async () => {
    const res = await at('/chat/session', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: 'success', msg: '' });
    const attributes = (res.headers.get('set-cookie') ?? '').split(';').map((a) => a.trim());
    expect(attributes[0]).toBe(`${COOKIE}=`);
    expect(attributes).toEqual(
      expect.arrayContaining(['Max-Age=0', 'Path=/', 'HttpOnly', 'SameSite=Strict']),
    );
  });
});

describe('the cookie as credentials for /user_uploads', () => {
  it('loads what the user may see, in every form, and not what they may not', async () => {
    const { value } = await logIn(t.accounts.member);
    const shared = await ownerFile('shared.txt');
    const unlinked = await ownerFile('private.txt');
    await sendToChannel(t, 'owner', general, 'files', `[shared](${shared})`);

    const res = await withCookie(value, shared);
    expect(res.status).toBe(200);
    expect(
      await statusWith(value, shared.replace('/user_uploads/', '/user_uploads/download/')),
    ).toBe(200);
    expect(await statusWith(value, shared, { method: 'HEAD' })).toBe(200);
    // The owner's file no message shows the member.
    expect(await statusWith(value, unlinked)).toBe(403);
    // The member's own upload, linked nowhere yet.
    const own = (await uploadOk(t.as('member'), 'mine', 'mine.txt', 'text/plain')).url;
    expect(await statusWith(value, own)).toBe(200);
  });

  it('loads thumbnails', async () => {
    const { value } = await logIn(t.accounts.member);
    const { url } = await uploadOk(t.as('member'), await png(400, 300), 'pic.png', 'image/png');
    const thumb = `${url.replace('/user_uploads/', '/user_uploads/thumbnail/')}/840x560.webp`;
    const res = await withCookie(value, thumb);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const { value: owners } = await logIn(t.accounts.owner);
    expect(await statusWith(owners, thumb)).toBe(403);
  });

  it('gives way to an Authorization header', async () => {
    const { value: owners } = await logIn(t.accounts.owner);
    const unlinked = await ownerFile('owners-only.txt');
    expect(await statusWith(owners, unlinked)).toBe(200);
    const res = await at(unlinked, {
      headers: {
        cookie: `${COOKIE}=${owners}`,
        authorization: basicAuth(t.accounts.member.email, t.accounts.member.apiKey),
      },
    });
    expect(res.status).toBe(403);
    await res.arrayBuffer();
  });

  it('is as good as none when unreadable, forged or of someone else', async () => {
    const { value } = await logIn(t.accounts.member);
    const own = (await uploadOk(t.as('member'), 'mine', 'forged.txt', 'text/plain')).url;
    const [id, expires, mac] = value.split('.') as [string, string, string];
    const flipped = `${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const forged of [
      '',
      'garbage',
      `${id}.${expires}`,
      `${id}.${expires}.${flipped}`,
      `${t.accounts.owner.id}.${expires}.${mac}`,
      `${id}.${Number(expires) + 1}.${mac}`,
      `${id}.${expires}.${mac}x`,
    ]) {
      const res = await withCookie(forged, own);
      expect(res.status, forged).toBe(401);
    }
    const res = await at(own, { headers: { cookie: `${COOKIE}=garbage` } });
    expect(await res.json()).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });

  it('expires after thirty days', async () => {
    const { value } = await logIn(t.accounts.member);
    const own = (await uploadOk(t.as('member'), 'mine', 'expiring.txt', 'text/plain')).url;
    clock.advance(THIRTY_DAYS - 10);
    expect(await statusWith(value, own)).toBe(200);
    clock.advance(10);
    expect(await statusWith(value, own)).toBe(401);
  });
});

describe('the cookie stops working', () => {
  it('when the user regenerates their API key', async () => {
    const account = await quickMember(t, 'Key Changer');
    const { value } = await logIn(account);
    const own = (await uploadOk(t.as(account), 'mine', 'key.txt', 'text/plain')).url;
    expect(await statusWith(value, own)).toBe(200);
    const res = await t.as(account).post('/users/me/api_key/regenerate');
    expect(res.status).toBe(200);
    expect(await statusWith(value, own)).toBe(401);
    // A new cookie made with the new key works.
    const renewed = await logIn({ ...account, apiKey: res.body.api_key });
    expect(await statusWith(renewed.value, own)).toBe(200);
  });

  it('when the user is deactivated', async () => {
    const account = await quickMember(t, 'Soon Gone');
    const { value } = await logIn(account);
    const own = (await uploadOk(t.as(account), 'mine', 'gone.txt', 'text/plain')).url;
    expect((await t.as('admin').delete(`/users/${account.id}`)).status).toBe(200);
    const res = await at(own, { headers: { cookie: `${COOKIE}=${value}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'USER_DEACTIVATED' });
  });
});

describe('the cookie is no credential anywhere else', () => {
  it('not on /api/v1, reads or writes', async () => {
    const { value } = await logIn(t.accounts.member);
    const shared = await ownerFile('api.txt');
    await sendToChannel(t, 'owner', general, 'files', `[api](${shared})`);
    for (const [method, pathname] of [
      ['GET', '/api/v1/users/me'],
      ['POST', '/api/v1/register'],
      ['POST', '/api/v1/messages?type=stream&to=general&topic=x&content=csrf'],
      ['GET', `/api/v1${shared}`],
      ['POST', '/api/v1/user_uploads'],
    ] as const) {
      const res = await withCookie(value, pathname, { method });
      expect(res.status, `${method} ${pathname}`).toBe(401);
    }
  });

  it('not on /trpc', async () => {
    const { value } = await logIn(t.accounts.owner);
    const res = await withCookie(value, '/trpc/desktop.status');
    expect(res.status).toBe(401);
  });
});

describe('a restart', () => {
  it('survives a restart (the secret is kept in the data directory, owner-only)', async () => {
    const { value } = await logIn(t.accounts.member);
    const own = (await uploadOk(t.as('member'), 'mine', 'restart.txt', 'text/plain')).url;
    await t.server.restart();
    expect(await statusWith(value, own)).toBe(200);
    const mode = statSync(path.join(t.dataDir, 'chat-session.key')).mode & 0o777;
    expect(mode).toBe(0o600);
  });
});

describe('a deactivated organization', () => {
  it('ends every cookie', async () => {
    const { value } = await logIn(t.accounts.member);
    const own = (await uploadOk(t.as('member'), 'mine', 'realm.txt', 'text/plain')).url;
    expect(await statusWith(value, own)).toBe(200);
    deactivateOrganization(t.server.ctx);
    const res = await at(own, { headers: { cookie: `${COOKIE}=${value}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'REALM_DEACTIVATED' });
  });
});
