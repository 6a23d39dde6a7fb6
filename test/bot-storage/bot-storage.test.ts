import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botStorageEntries } from '../../server/db/queries/bot-storage.js';
import {
  type Account,
  type ApiResponse,
  type FixtureName,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';
import { PythonClient, pyJsonDumps, StateHandler } from './python-client.js';

let t: TestServer;
/** One bot of each type besides the generic fixture: incoming webhook, outgoing webhook, embedded. */
const bots: Record<'incoming' | 'outgoing' | 'embedded', Account> = {} as never;

async function createBot(params: Record<string, unknown>): Promise<Account> {
  const res = await t.as('member').post('/bots', params);
  expect(res.body.result, JSON.stringify(res.body)).toBe('success');
  return {
    id: res.body.user_id,
    email: `${params.short_name}-bot@test.hearth`,
    apiKey: res.body.api_key,
    password: null,
  };
}

beforeAll(async () => {
  t = await startTestServer();
  bots.incoming = await createBot({ full_name: 'Hook Bot', short_name: 'hook', bot_type: 2 });
  bots.outgoing = await createBot({
    full_name: 'Out Bot',
    short_name: 'out',
    bot_type: 3,
    payload_url: JSON.stringify('http://127.0.0.1:1/hook'),
  });
  bots.embedded = await createBot({
    full_name: 'Embedded Bot',
    short_name: 'embedded',
    bot_type: 4,
    service_name: 'helloworld',
  });
});

afterAll(() => t?.close());

const python = (bot: Account = t.accounts.bot) => new PythonClient(t.url, bot.email, bot.apiKey);
const stored = (bot: Account = t.accounts.bot) =>
  Object.fromEntries(botStorageEntries(t.server.ctx.db, bot.id).map((e) => [e.key, e.value]));

async function clear(bot: Account = t.accounts.bot) {
  const res = await python(bot).removeStorage();
  expect(res.body.result).toBe('success');
}

function expectError(
  res: { status: number; body: ApiResponse['body'] },
  code: string,
  msg: string,
  status = 400,
) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ result: 'error', code, msg });
}

describe('as zulip_bots calls it (StateHandler over the Python client)', () => {
  it('puts, gets back byte for byte, and reports a missing key as KeyError', async () => {
    await clear();
    const state = new StateHandler(python());
    const value = { foo: 'bar', baz: [42, 'cux'], 'naïve ✓ 😀': 'tab\there "quoted"\n' };
    await state.put('some key', value);
    // The stored string is exactly what json.dumps produced.
    expect(stored()).toEqual({ 'some key': pyJsonDumps(value) });

    // A fresh handler (a restarted bot) has to ask the server.
    const restarted = new StateHandler(python());
    expect(restarted.contains('some key')).toBe(false);
    expect(await restarted.get('some key')).toEqual(value);
    expect(restarted.contains('some key')).toBe(true);

    await expect(restarted.get('nonexistent key')).rejects.toThrow('KeyError');
  });

  it('answers the raw requests with Zulip bodies', async () => {
    await clear();
    const client = python();
    const put = await client.updateStorage({ storage: { 'key 1': 'value 1', 'key 2': 'value 2' } });
    expect(put).toEqual({ status: 200, body: { result: 'success', msg: '' } });

    const all = await client.getStorage();
    expect(all).toEqual({
      status: 200,
      body: { result: 'success', msg: '', storage: { 'key 1': 'value 1', 'key 2': 'value 2' } },
    });

    const some = await client.getStorage({ keys: ['key 2'] });
    expect(some.body).toEqual({ result: 'success', msg: '', storage: { 'key 2': 'value 2' } });

    const missing = await client.getStorage({ keys: ['nope'] });
    // Bots test `reply['msg'] == 'Key does not exist.'`.
    expectError(missing, 'BAD_REQUEST', 'Key does not exist.');

    const removed = await client.removeStorage({ keys: ['key 1'] });
    expect(removed).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect(stored()).toEqual({ 'key 2': 'value 2' });
  });
});

describe('PUT /bot_storage', () => {
  it('adds new entries and replaces existing ones, keeping the others', async () => {
    await clear();
    const client = python();
    const initial = { 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'value 3' };
    await client.updateStorage({ storage: initial });
    const update = { 'key 1': 'new value', 'key 4': 'value 4' };
    const res = await client.updateStorage({ storage: update });
    expect(res.body.result).toBe('success');
    expect((await client.getStorage()).body.storage).toEqual({ ...initial, ...update });
  });

  it('accepts an empty object and any key, "__proto__" and the empty string included', async () => {
    await clear();
    const client = python();
    expect((await client.updateStorage({ storage: {} })).body.result).toBe('success');
    expect(stored()).toEqual({});
    const res = await t.as('bot').put('/bot_storage', {
      storage: '{"__proto__": "a", "": "empty key", "constructor": ""}',
    });
    expect(res.body.result).toBe('success');
    const all = await client.getStorage();
    expect(Object.keys(all.body.storage).sort()).toEqual(['', '__proto__', 'constructor']);
    expect(Object.entries(all.body.storage)).toContainEqual(['__proto__', 'a']);
    const one = await client.getStorage({ keys: ['__proto__'] });
    expect(Object.entries(one.body.storage)).toEqual([['__proto__', 'a']]);
  });

  it('names bad input as Zulip does', async () => {
    await clear();
    const bot = t.as('bot');
    const res = await bot.put('/bot_storage', {});
    expectError(res, 'REQUEST_VARIABLE_MISSING', "Missing 'storage' argument");
    expect(res.body.var_name).toBe('storage');
    expectError(
      await bot.put('/bot_storage', { storage: '{not json' }),
      'BAD_REQUEST',
      'storage is not valid JSON',
    );
    expectError(
      await bot.put('/bot_storage', { storage: ['a'] }),
      'BAD_REQUEST',
      'storage is not a dict',
    );
    expectError(
      await bot.put('/bot_storage', { storage: 'null' }),
      'BAD_REQUEST',
      'storage is not a dict',
    );
    expectError(
      await bot.put('/bot_storage', { storage: { foo: [1, 2, 3] } }),
      'BAD_REQUEST',
      'storage["foo"] is not a string',
    );
    expectError(
      await bot.put('/bot_storage', { storage: { ok: 'fine', n: 5 } }),
      'BAD_REQUEST',
      'storage["n"] is not a string',
    );
    // Nothing of a refused request is kept.
    expect(stored()).toEqual({});
  });
});

describe('the storage limit (10,000,000 characters of keys and values per bot)', () => {
  const LIMIT = 10_000_000;
  /** With its one-character key, an entry of 1,666,666 characters; six of them leave 4. */
  const third = 'x'.repeat(1_666_665);

  it('counts keys and values in characters, over the whole storage, per bot', async () => {
    await clear();
    await clear(bots.embedded);
    const client = python();
    // Built in requests under the 4 MB body limit.
    for (const keys of [
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]) {
      const res = await client.updateStorage({
        storage: Object.fromEntries(keys.map((k) => [k, third])),
      });
      expect(res.body.result, JSON.stringify(res.body).slice(0, 200)).toBe('success');
    }
    expect(6 * (third.length + 1)).toBe(LIMIT - 4);

    // 5 characters where 4 are left: the message gives the excess.
    expectError(
      await client.updateStorage({ storage: { gh: '123' } }),
      'BAD_REQUEST',
      'Request exceeds storage limit by 1 characters. The limit is 10000000 characters.',
    );
    // All or nothing: a fitting entry in the same request is not kept either.
    expectError(
      await client.updateStorage({ storage: { z: '', gh: '123' } }),
      'BAD_REQUEST',
      'Request exceeds storage limit by 2 characters. The limit is 10000000 characters.',
    );
    expect(Object.keys(stored()).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);

    // Characters, not UTF-16 units: three astral characters are 3 (6 units would not fit).
    expect((await client.updateStorage({ storage: { '😀': '😀😀' } })).body.result).toBe('success');
    // Exactly at the limit is allowed; one more character is not.
    expect((await client.updateStorage({ storage: { g: '' } })).body.result).toBe('success');
    expectError(
      await client.updateStorage({ storage: { h: '' } }),
      'BAD_REQUEST',
      'Request exceeds storage limit by 1 characters. The limit is 10000000 characters.',
    );

    // Replacing an entry counts only the difference: shrink "a" by 3, add 3 elsewhere.
    const res = await client.updateStorage({ storage: { a: third.slice(3), hi: 'j' } });
    expect(res.body.result).toBe('success');

    // The limit is per bot: another bot still has all of it.
    const other = await python(bots.embedded).updateStorage({ storage: { a: third } });
    expect(other.body.result).toBe('success');

    await clear();
    await clear(bots.embedded);
  });
});

describe('GET /bot_storage', () => {
  it('returns the listed keys, nothing for an empty list, an error for any missing one', async () => {
    await clear();
    const client = python();
    await client.updateStorage({
      storage: { 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'v3' },
    });
    const res = await client.getStorage({ keys: ['key 1', 'key 3'] });
    expect(res.body.storage).toEqual({ 'key 1': 'value 1', 'key 3': 'v3' });
    expect((await client.getStorage({ keys: [] })).body.storage).toEqual({});
    expectError(
      await client.getStorage({ keys: ['key 1', 'nonexistent key'] }),
      'BAD_REQUEST',
      'Key does not exist.',
    );
  });

  it('checks keys the way Zulip words it', async () => {
    const bot = t.as('bot');
    expectError(
      await bot.get('/bot_storage', { keys: 'key 1' }),
      'BAD_REQUEST',
      'keys is not valid JSON',
    );
    expectError(
      await bot.get('/bot_storage', { keys: '{"a": "b"}' }),
      'BAD_REQUEST',
      'keys is not a list',
    );
    expectError(
      await bot.get('/bot_storage', { keys: [1] }),
      'BAD_REQUEST',
      'keys[0] is not a string',
    );
  });
});

describe('DELETE /bot_storage', () => {
  it('removes the listed keys; with one missing it removes nothing', async () => {
    await clear();
    const client = python();
    await client.updateStorage({ storage: { 'key 1': '1', 'key 2': '2', 'key 3': '3' } });
    expect((await client.removeStorage({ keys: ['key 1', 'key 2'] })).body.result).toBe('success');
    expect(stored()).toEqual({ 'key 3': '3' });

    expectError(
      await client.removeStorage({ keys: ['key 3', 'nonexistent key'] }),
      'BAD_REQUEST',
      'Key does not exist.',
    );
    expect(stored()).toEqual({ 'key 3': '3' });

    // Zulip compares the number of matching entries with the list's length,
    // so a key listed twice fails like a missing one.
    expectError(
      await client.removeStorage({ keys: ['key 3', 'key 3'] }),
      'BAD_REQUEST',
      'Key does not exist.',
    );
    expect(stored()).toEqual({ 'key 3': '3' });

    expect((await client.removeStorage({ keys: [] })).body.result).toBe('success');
    expect(stored()).toEqual({ 'key 3': '3' });
  });

  it('removes everything when keys is omitted, and only the caller’s', async () => {
    await clear();
    await clear(bots.outgoing);
    await python().updateStorage({ storage: { a: '1', b: '2' } });
    await python(bots.outgoing).updateStorage({ storage: { a: 'other bot' } });
    expect((await python().removeStorage()).body).toEqual({ result: 'success', msg: '' });
    expect(stored()).toEqual({});
    expect(stored(bots.outgoing)).toEqual({ a: 'other bot' });
    // Removing from an empty storage is fine.
    expect((await python().removeStorage()).body.result).toBe('success');
  });

  it('checks keys the way Zulip words it', async () => {
    const bot = t.as('bot');
    expectError(
      await bot.delete('/bot_storage', { keys: 'a' }),
      'BAD_REQUEST',
      'keys is not valid JSON',
    );
    expectError(
      await bot.delete('/bot_storage', { keys: [null] }),
      'BAD_REQUEST',
      'keys[0] is not a string',
    );
  });
});

describe('who may use bot storage', () => {
  const humans: FixtureName[] = ['owner', 'admin', 'moderator', 'member', 'guest'];

  it('every human role is refused, before any parameter is read', async () => {
    for (const who of humans) {
      const client = t.as(who);
      for (const res of [
        await client.put('/bot_storage', { storage: { a: 'b' } }),
        await client.put('/bot_storage', {}),
        await client.put('/bot_storage', { storage: '{"a": "b"}' }),
        await client.get('/bot_storage'),
        await client.get('/bot_storage', { keys: ['a'] }),
        await client.delete('/bot_storage'),
        await client.delete('/bot_storage', { keys: ['a'] }),
      ]) {
        expectError(res, 'PERMISSION_DENIED', 'Must be a bot user');
      }
      const row = t.server.ctx.db
        .prepare('SELECT COUNT(*) AS n FROM bot_storage WHERE bot_id = ?')
        .get(t.accounts[who].id) as { n: number };
      expect(row.n, who).toBe(0);
    }
  });

  it('bots of every type have their own storage', async () => {
    // Incoming-webhook bots may only send messages (Zulip's allow_incoming_webhooks).
    const all: Account[] = [t.accounts.bot, bots.outgoing, bots.embedded];
    for (const bot of all) await clear(bot);
    for (const [i, bot] of all.entries()) {
      const res = await python(bot).updateStorage({ storage: { shared: `bot ${i}` } });
      expect(res.body.result).toBe('success');
    }
    for (const [i, bot] of all.entries()) {
      expect((await python(bot).getStorage()).body.storage).toEqual({ shared: `bot ${i}` });
    }
    // A bot cannot read another bot's keys.
    await python(bots.outgoing).updateStorage({ storage: { private: 'mine' } });
    expectError(
      await python(bots.embedded).getStorage({ keys: ['private'] }),
      'BAD_REQUEST',
      'Key does not exist.',
    );
  });

  it('is not available to incoming-webhook bots', async () => {
    const res = await python(bots.incoming).updateStorage({ storage: { hook: 'no' } });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 401,
      body: {
        result: 'error',
        msg: 'This API is not available to incoming webhook bots.',
        code: 'UNAUTHORIZED',
      },
    });
  });

  it('sends no events, to the bot or anyone else', async () => {
    const queues = await Promise.all(
      (['bot', 'member', 'owner'] as const).map(async (who) => {
        const res = await t.as(who).post('/register', { fetch_event_types: [] });
        return { who, id: res.body.queue_id as string };
      }),
    );
    await python().updateStorage({ storage: { evented: 'no' } });
    await python().getStorage();
    await python().removeStorage({ keys: ['evented'] });
    for (const { who, id } of queues) {
      const res = await t
        .as(who)
        .get('/events', { queue_id: id, last_event_id: -1, dont_block: true });
      expect(
        res.body.events.filter((e: { type: string }) => e.type !== 'heartbeat'),
        who,
      ).toEqual([]);
    }
  });
});
