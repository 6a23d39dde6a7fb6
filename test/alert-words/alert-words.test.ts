import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { usersWithAlertWords } from '../../server/alert-words/matching.js';
import { Watchers } from '../helpers/event-queues.js';
import { createChannel } from '../helpers/fixtures.js';
import { sendDirect, sendToChannel } from '../helpers/messages.js';
import { type FixtureName, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;
let general: number;

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false });
  const a = t.accounts;
  general = createChannel(t, {
    name: 'general',
    subscribers: [a.owner.id, a.admin.id, a.member.id, a.guest.id, a.bot.id],
  });
  watchers = new Watchers(t);
  await watchers.add('member', 'member', { event_types: ['alert_words'] });
  await watchers.add('member:2', 'member');
  await watchers.add('member:messages-only', 'member', { event_types: ['message'] });
  await watchers.add('owner', 'owner');
});
afterAll(() => t.close());

beforeEach(async () => {
  t.server.ctx.db.prepare('DELETE FROM alert_words').run();
  await watchers.clear();
});

const member = () => t.as('member');

async function add(who: FixtureName, words: string[]): Promise<string[]> {
  const res = await t.as(who).post('/users/me/alert_words', { alert_words: words });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.alert_words as string[];
}

async function listOf(who: FixtureName): Promise<string[]> {
  const res = await t.as(who).get('/users/me/alert_words');
  expect(res.status).toBe(200);
  return res.body.alert_words as string[];
}

async function flagsOf(who: FixtureName, messageId: number): Promise<string[]> {
  const res = await t.as(who).get('/messages', {
    anchor: messageId,
    num_before: 0,
    num_after: 0,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.messages).toHaveLength(1);
  return res.body.messages[0].flags as string[];
}

describe('POST /users/me/alert_words', () => {
  it('adds stripped words, skips blanks and case-insensitive duplicates, returns the list', async () => {
    expect(await add('member', ['  Coffee ', '', '   ', 'tea'])).toEqual(['Coffee', 'tea']);
    // Already there in another case: kept as first given. New words differing
    // only in case: the last spelling wins.
    expect(await add('member', ['COFFEE', 'Hearth', 'HEARTH', 'two words'])).toEqual([
      'Coffee',
      'HEARTH',
      'tea',
      'two words',
    ]);
    expect(await listOf('member')).toEqual(['Coffee', 'HEARTH', 'tea', 'two words']);
    expect(await listOf('owner')).toEqual([]);
  });

  it('sends the full list to every queue of the user and nowhere else, even when nothing changed', async () => {
    await add('member', ['coffee']);
    await add('member', ['Coffee']);
    const events = await watchers.take();
    const event = (words: string[]) => ({
      id: expect.any(Number),
      type: 'alert_words',
      alert_words: words,
    });
    expect(events).toEqual({
      member: [event(['coffee']), event(['coffee'])],
      'member:2': [event(['coffee']), event(['coffee'])],
      'member:messages-only': [],
      owner: [],
    });
  });

  it('refuses words over 100 characters (before stripping) and bad JSON', async () => {
    let res = await member().post('/users/me/alert_words', {
      alert_words: ['ok', 'a'.repeat(101)],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'alert_words[1] is too long (limit: 100 characters)',
    });
    res = await member().post('/users/me/alert_words', { alert_words: [` ${'a'.repeat(100)}`] });
    expect(res.body.msg).toBe('alert_words[0] is too long (limit: 100 characters)');
    // 100 characters outside the Basic Multilingual Plane are within the limit.
    expect(await add('member', ['😀'.repeat(100)])).toEqual(['😀'.repeat(100)]);
    res = await member().post('/users/me/alert_words', { alert_words: 'coffee' });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'alert_words is not valid JSON' });
    res = await member().post('/users/me/alert_words', { alert_words: '"coffee"' });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'alert_words is not a list' });
    res = await member().post('/users/me/alert_words', { alert_words: [1] });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'alert_words[0] is not a string' });
    res = await member().post('/users/me/alert_words', {}, { skipSchema: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'alert_words' });
    expect(await listOf('member')).toEqual(['😀'.repeat(100)]);
  });
});

describe('DELETE /users/me/alert_words', () => {
  it('removes words in any case, ignores unknown ones, and sends the new list', async () => {
    await add('member', ['Coffee', 'tea', 'cake']);
    await add('owner', ['coffee']);
    await watchers.clear();
    const res = await member().delete('/users/me/alert_words', {
      alert_words: ['COFFEE', 'nothing', 'Cake'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.alert_words).toEqual(['tea']);
    expect(await listOf('member')).toEqual(['tea']);
    expect(await listOf('owner')).toEqual(['coffee']);
    const events = await watchers.take();
    expect(events.member).toEqual([
      { id: expect.any(Number), type: 'alert_words', alert_words: ['tea'] },
    ]);
    expect(events['member:2']).toHaveLength(1);
    expect(events.owner).toEqual([]);
  });

  it('needs a list of strings', async () => {
    const res = await member().delete('/users/me/alert_words', { alert_words: [3] });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('alert_words[0] is not a string');
  });
});

describe('POST /register alert_words', () => {
  it("lists the user's words before and after changes", async () => {
    const state = async () =>
      (await member().post('/register', { fetch_event_types: ['alert_words'] })).body.alert_words;
    expect(await state()).toEqual([]);
    await add('member', ['b', 'a']);
    expect(await state()).toEqual(['a', 'b']);
    await member().delete('/users/me/alert_words', { alert_words: ['a'] });
    expect(await state()).toEqual(['b']);
  });
});

describe('has_alert_word on new messages', () => {
  it('flags exactly the recipients whose words appear, in the message event too', async () => {
    await add('member', ['Hearth']);
    await add('admin', ['release day']);
    await add('guest', ['nothing here']);
    await watchers.clear();
    const id = await sendToChannel(
      t,
      'owner',
      general,
      'news',
      'The **HEARTH** release day is near.',
    );
    expect(await flagsOf('member', id)).toContain('has_alert_word');
    expect(await flagsOf('admin', id)).toContain('has_alert_word');
    expect(await flagsOf('guest', id)).not.toContain('has_alert_word');
    expect(await flagsOf('owner', id)).not.toContain('has_alert_word');
    const events = await watchers.take('message');
    expect(events['member:2']![0].flags).toContain('has_alert_word');
    expect(events.owner![0].flags).not.toContain('has_alert_word');
  });

  it('flags the sender on their own message, and direct message recipients', async () => {
    await add('member', ['coffee']);
    await add('owner', ['coffee']);
    const own = await sendToChannel(t, 'member', general, 'drinks', 'coffee?');
    expect(await flagsOf('member', own)).toContain('has_alert_word');
    expect(await flagsOf('owner', own)).toContain('has_alert_word');
    const dm = await sendDirect(t, 'admin', [t.accounts.member.id], 'Coffee time');
    expect(await flagsOf('member', dm)).toEqual(expect.arrayContaining(['has_alert_word']));
    expect(await flagsOf('admin', dm)).not.toContain('has_alert_word');
  });

  it('ignores words inside other words and inside code blocks', async () => {
    await add('member', ['cat']);
    for (const content of ['concatenate', 'the cats', '```\ncat\n```', 'say "cat"']) {
      const id = await sendToChannel(t, 'owner', general, 'pets', content);
      expect(await flagsOf('member', id), content).not.toContain('has_alert_word');
    }
    for (const content of ['cat', 'a `cat`', '(cat)', '> cat', 'Cat!', '```quote\ncat\n```']) {
      const id = await sendToChannel(t, 'owner', general, 'pets', content);
      expect(await flagsOf('member', id), content).toContain('has_alert_word');
    }
  });

  it('updates the flag when an edit adds or removes the word', async () => {
    await add('member', ['coffee']);
    const id = await sendToChannel(t, 'owner', general, 'edits', 'tea');
    expect(await flagsOf('member', id)).not.toContain('has_alert_word');
    let res = await t.as('owner').patch(`/messages/${id}`, { content: 'tea and coffee' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await flagsOf('member', id)).toContain('has_alert_word');
    res = await t.as('owner').patch(`/messages/${id}`, { content: 'tea only' });
    expect(res.status).toBe(200);
    expect(await flagsOf('member', id)).not.toContain('has_alert_word');
  });
});

describe('alert word matching', () => {
  const match = (content: string, ...words: string[]) =>
    usersWithAlertWords(
      content,
      words.map((word, i) => ({ user_id: i + 1, word })),
    );

  it('is case-insensitive and finds phrases', () => {
    expect(match('Big NEWS today', 'news', 'big news', 'today!')).toEqual(new Set([1, 2]));
  });

  it('needs the allowed characters around the word', () => {
    for (const text of [
      'x word.',
      '(word)',
      '[word]',
      '*word*',
      '`word`',
      "'word'",
      'word;',
      'word:',
      'word?',
      '"word.',
      '>word',
      'a\nword\n',
      'a\tword',
    ]) {
      expect(match(text, 'word'), text).toEqual(new Set([1]));
    }
    for (const text of ['swordfish', 'a-word', 'word-b', '"word"', 'a/word', 'x_word', 'word_']) {
      expect(match(text, 'word'), text).toEqual(new Set());
    }
  });

  it("keeps Zulip's quirk: a word starting at the second character always has a valid start", () => {
    expect(match('xword', 'word')).toEqual(new Set([1]));
    expect(match('😀word', 'word')).toEqual(new Set([1]));
    expect(match('xxword', 'word')).toEqual(new Set());
  });

  it('skips fenced code and math, not quotes and spoilers', () => {
    expect(match('~~~ py\nword\n~~~', 'word')).toEqual(new Set());
    expect(match('```math\nword\n```', 'word')).toEqual(new Set());
    expect(match('```\nunclosed\nword', 'word')).toEqual(new Set());
    expect(match('```\ncode\n```\nword', 'word')).toEqual(new Set([1]));
    expect(match('```spoiler word header\nhidden\n```', 'word')).toEqual(new Set([1]));
    expect(match('```spoiler title\nword\n```', 'word')).toEqual(new Set([1]));
    expect(match('```quote\n~~~\nword\n~~~\n```', 'word')).toEqual(new Set());
  });

  it('gives every user of a shared word the flag', () => {
    expect(
      usersWithAlertWords('hello', [
        { user_id: 4, word: 'Hello' },
        { user_id: 9, word: 'HELLO' },
        { user_id: 5, word: 'bye' },
      ]),
    ).toEqual(new Set([4, 9]));
  });
});
