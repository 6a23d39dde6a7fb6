/**
 * The search index trails the sends (server/db/queries/search-index.ts):
 * a send writes no search row, the indexing job and every search add the
 * backlog in id order, and edits, moves and deletions of messages not yet
 * indexed leave the index consistent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let channel: number;

/** What the index itself holds for an FTS5 query, without catching up first. */
const indexedIds = (query: string): number[] =>
  t.server.ctx.db
    .prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid')
    .pluck()
    .all(query) as number[];

async function searchIds(words: string): Promise<number[]> {
  const res = await t.as('member').get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: [['search', words]],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.messages as Array<{ id: number }>).map((m) => m.id);
}

const send = (topic: string, content: string) =>
  sendToChannel(t, 'member', channel, topic, content);

beforeAll(async () => {
  // No job: each test decides when the index catches up (by searching).
  t = await startTestServer({ searchIndexing: false });
  channel = createChannel(t, {
    name: 'index',
    subscribers: [t.accounts.member.id, t.accounts.admin.id],
  });
});
afterAll(() => t.close());

describe('the search index trails the sends', () => {
  it('a send stores no search row; a search finds the message and indexes it', async () => {
    const id = await send('zoo', 'a **zebracorn** appears');
    expect(indexedIds('zebracorn')).toEqual([]);
    expect(await searchIds('zebracorn')).toEqual([id]);
    expect(indexedIds('zebracorn')).toEqual([id]);
  });

  it('indexes the rendered text, as Zulip searches it, not the Markdown', async () => {
    const id = await send('zoo', 'see [the okapi page](https://example.com/okapi-notes)');
    expect(await searchIds('okapi page')).toEqual([id]);
    // The link target is markup, not text the message shows.
    expect(await searchIds('example')).toEqual([]);
  });

  it('an edit before indexing: the new words are found, the old ones not', async () => {
    const id = await send('zoo', 'the quagga sleeps');
    const edit = await t.as('member').patch(`/messages/${id}`, { content: 'the narwhal sleeps' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await searchIds('quagga')).toEqual([]);
    expect(await searchIds('narwhal')).toEqual([id]);
  });

  it('a move before indexing: the message is found by its new topic only', async () => {
    const id = await send('axolotl pond', 'swimming');
    const move = await t.as('member').patch(`/messages/${id}`, { topic: 'capybara pond' });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    // (Zulip's notice of the move names the old topic: that message matches.)
    expect(await searchIds('axolotl')).not.toContain(id);
    expect(await searchIds('capybara')).toContain(id);
    expect(indexedIds('swimming')).toEqual([id]);
  });

  it('a topic move after indexing re-indexes every moved message under its new topic', async () => {
    const ids = [
      await send('gecko den', 'lizard one'),
      await send('gecko den', 'lizard two'),
      await send('gecko den', 'lizard three'),
    ];
    expect(await searchIds('lizard')).toEqual(ids);
    const move = await t.as('member').patch(`/messages/${ids[0]}`, {
      topic: 'iguana den',
      propagate_mode: 'change_all',
    });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
    // The newest indexed row (the last message) was replaced too, not dropped.
    expect(indexedIds('topic:iguana')).toEqual(ids);
    expect(indexedIds('topic:gecko')).toEqual([]);
    expect(indexedIds('lizard')).toEqual(ids);
  });

  it('an edit after indexing replaces the row', async () => {
    const id = await send('zoo', 'a tapir naps');
    expect(await searchIds('tapir')).toEqual([id]);
    await t.as('member').patch(`/messages/${id}`, { content: 'a pangolin naps' });
    expect(indexedIds('tapir')).toEqual([]);
    expect(indexedIds('pangolin')).toEqual([id]);
  });

  it('deleting the newest indexed message leaves no message indexed twice or skipped', async () => {
    const first = await send('zoo', 'wombat one');
    const second = await send('zoo', 'wombat two');
    expect(await searchIds('wombat')).toEqual([first, second]);
    expect((await t.as('admin').delete(`/messages/${second}`)).status).toBe(200);
    const third = await send('zoo', 'wombat three');
    expect(await searchIds('wombat')).toEqual([first, third]);
    expect(indexedIds('wombat')).toEqual([first, third]);
  });

  it('deleting a message not yet indexed leaves the ones after it to be indexed', async () => {
    const gone = await send('zoo', 'ibex gone');
    const kept = await send('zoo', 'ibex kept');
    expect((await t.as('admin').delete(`/messages/${gone}`)).status).toBe(200);
    expect(await searchIds('ibex')).toEqual([kept]);
    expect(indexedIds('ibex')).toEqual([kept]);
  });
});

describe('the search indexing job', () => {
  let withJob: TestServer;
  beforeAll(async () => {
    withJob = await startTestServer({ searchIndexing: '* * * * * *' });
  });
  afterAll(() => withJob.close());

  it('indexes sent messages within seconds, without any search', async () => {
    const stream = createChannel(withJob, {
      name: 'job',
      subscribers: [withJob.accounts.member.id],
    });
    const id = await sendToChannel(withJob, 'member', stream, 'zoo', 'a lonely dugong');
    const indexed = () =>
      withJob.server.ctx.db
        .prepare("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'dugong'")
        .pluck()
        .all() as number[];
    const deadline = Date.now() + 5000;
    while (indexed().length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(indexed()).toEqual([id]);
  });
});
