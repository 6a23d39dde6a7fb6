import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Watchers } from '../helpers/event-queues.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../messages/send-support.js';

let t: TestServer;
const clock = new FakeClock();
const nowSeconds = () => Math.floor(clock.ms / 1000);
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer({ now: clock.now, scheduledDelivery: false });
  watchers = new Watchers(t);
  await watchers.add('member', 'member', { event_types: ['saved_snippets'] });
  await watchers.add('member:2', 'member');
  await watchers.add('member:messages-only', 'member', { event_types: ['message'] });
  await watchers.add('owner', 'owner');
  await watchers.add('bot', 'bot');
});
afterAll(() => t.close());

beforeEach(async () => {
  t.server.ctx.db.prepare('DELETE FROM saved_snippets').run();
  await watchers.clear();
});

const member = () => t.as('member');

async function create(title: string, content: string): Promise<number> {
  const res = await member().post('/saved_snippets', { title, content });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(['msg', 'result', 'saved_snippet_id']);
  return res.body.saved_snippet_id as number;
}

async function expectError(
  res: Promise<{ status: number; body: Record<string, unknown> }>,
  status: number,
  msg: string,
): Promise<void> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
}

async function registered(): Promise<unknown> {
  const res = await member().post('/register', { fetch_event_types: ['saved_snippets'] });
  expect(res.status).toBe(200);
  return res.body.saved_snippets;
}

describe('POST /saved_snippets', () => {
  it('stores the stripped title and content and tells every queue of the owner only', async () => {
    const id = await create('  Greeting \n', '\n Welcome to **Hearth**!  ');
    const snippet = {
      id,
      title: 'Greeting',
      content: 'Welcome to **Hearth**!',
      date_created: nowSeconds(),
    };
    expect((await member().get('/saved_snippets')).body.saved_snippets).toEqual([snippet]);
    expect(await watchers.take()).toEqual({
      member: [
        { id: expect.any(Number), type: 'saved_snippets', op: 'add', saved_snippet: snippet },
      ],
      'member:2': [
        { id: expect.any(Number), type: 'saved_snippets', op: 'add', saved_snippet: snippet },
      ],
      'member:messages-only': [],
      owner: [],
      bot: [],
    });
  });

  it('refuses a missing, blank or too long title or content', async () => {
    // The reference's 400 schema has no var_name; Zulip sends it for missing arguments.
    const raw = { skipSchema: true };
    const missingTitle = await member().post('/saved_snippets', { content: 'x' }, raw);
    expect(missingTitle.status).toBe(400);
    expect(missingTitle.body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'title',
    });
    const missingContent = await member().post('/saved_snippets', { title: 'x' }, raw);
    expect(missingContent.body).toMatchObject({
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'content',
    });
    await expectError(
      member().post('/saved_snippets', { title: '  ', content: 'x' }),
      400,
      'title cannot be blank',
    );
    await expectError(
      member().post('/saved_snippets', { title: 'x', content: '' }),
      400,
      'content cannot be blank',
    );
    await expectError(
      member().post('/saved_snippets', { title: 'a'.repeat(61), content: 'x' }),
      400,
      'title is too long (limit: 60 characters)',
    );
    await expectError(
      member().post('/saved_snippets', { title: 'x', content: 'a'.repeat(10_001) }),
      400,
      'content is too long (limit: 10000 characters)',
    );
    // The limits count characters after stripping, not UTF-16 units.
    await create(` ${'é'.repeat(60)} `, '😀'.repeat(10_000));
    await create('ok', 'ok');
    expect((await member().get('/saved_snippets')).body.saved_snippets).toHaveLength(2);
    const events = await watchers.take();
    expect(events.member).toHaveLength(2);
  });

  it('keeps snippets private to their owner', async () => {
    const id = await create('mine', 'private text');
    expect((await t.as('owner').get('/saved_snippets')).body.saved_snippets).toEqual([]);
    await expectError(
      t.as('owner').delete(`/saved_snippets/${id}`),
      404,
      'Saved snippet does not exist.',
    );
    await expectError(
      t.as('owner').patch(`/saved_snippets/${id}`, { title: 'theirs' }),
      404,
      'Saved snippet does not exist.',
    );
    expect((await member().get('/saved_snippets')).body.saved_snippets[0].title).toBe('mine');
  });

  it('works for bots too', async () => {
    const res = await t.as('bot').post('/saved_snippets', { title: 'b', content: 'c' });
    expect(res.status).toBe(200);
    const events = await watchers.take();
    expect(events.bot).toMatchObject([{ type: 'saved_snippets', op: 'add' }]);
    expect(events.member).toEqual([]);
  });
});

describe('PATCH /saved_snippets/{id}', () => {
  it('changes only what is given and sends the whole snippet', async () => {
    const id = await create('Title', 'Content');
    const created = nowSeconds();
    clock.advance(60);
    await watchers.clear();
    let res = await member().patch(`/saved_snippets/${id}`, { title: ' New ' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const afterTitle = { id, title: 'New', content: 'Content', date_created: created };
    res = await member().patch(`/saved_snippets/${id}`, { content: 'Other' });
    expect(res.status).toBe(200);
    const afterContent = { ...afterTitle, content: 'Other' };
    expect((await member().get('/saved_snippets')).body.saved_snippets).toEqual([afterContent]);
    const events = await watchers.take();
    expect(events.member?.map((e: Record<string, unknown>) => e.saved_snippet)).toEqual([
      afterTitle,
      afterContent,
    ]);
    expect(events['member:2']).toHaveLength(2);
    expect(events.owner).toEqual([]);
    expect(events['member:messages-only']).toEqual([]);
  });

  it('with nothing to change succeeds without an event, even for a missing id', async () => {
    const id = await create('Title', 'Content');
    await watchers.clear();
    expect((await member().patch(`/saved_snippets/${id}`, {})).status).toBe(200);
    expect((await member().patch('/saved_snippets/999999', {})).status).toBe(200);
    expect((await watchers.take()).member).toEqual([]);
  });

  it('refuses blank or too long values and missing snippets', async () => {
    const id = await create('Title', 'Content');
    await watchers.clear();
    await expectError(
      member().patch(`/saved_snippets/${id}`, { title: ' ' }),
      400,
      'title cannot be blank',
    );
    await expectError(
      member().patch(`/saved_snippets/${id}`, { content: 'a'.repeat(10_001) }),
      400,
      'content is too long (limit: 10000 characters)',
    );
    await expectError(
      member().patch('/saved_snippets/999999', { title: 'x' }),
      404,
      'Saved snippet does not exist.',
    );
    const bad = await member().patch('/saved_snippets/abc', { title: 'x' });
    expect(bad.status).toBe(404);
    expect((await member().get('/saved_snippets')).body.saved_snippets[0]).toMatchObject({
      title: 'Title',
      content: 'Content',
    });
    expect((await watchers.take()).member).toEqual([]);
  });
});

describe('DELETE /saved_snippets/{id}', () => {
  it('deletes and tells the owner', async () => {
    const keep = await create('keep', 'a');
    const gone = await create('gone', 'b');
    await watchers.clear();
    expect((await member().delete(`/saved_snippets/${gone}`)).status).toBe(200);
    expect(
      (await member().get('/saved_snippets')).body.saved_snippets.map((s: { id: number }) => s.id),
    ).toEqual([keep]);
    const events = await watchers.take();
    const removed = {
      id: expect.any(Number),
      type: 'saved_snippets',
      op: 'remove',
      saved_snippet_id: gone,
    };
    expect(events.member).toEqual([removed]);
    expect(events['member:2']).toEqual([removed]);
    expect(events.owner).toEqual([]);
    await expectError(
      member().delete(`/saved_snippets/${gone}`),
      404,
      'Saved snippet does not exist.',
    );
    expect((await watchers.take()).member).toEqual([]);
  });
});

describe('POST /register saved_snippets', () => {
  it("lists the user's snippets, oldest first, before and after changes", async () => {
    expect(await registered()).toEqual([]);
    const first = await create('one', '1');
    const second = await create('two', '2');
    expect(await registered()).toEqual([
      { id: first, title: 'one', content: '1', date_created: nowSeconds() },
      { id: second, title: 'two', content: '2', date_created: nowSeconds() },
    ]);
    await member().delete(`/saved_snippets/${first}`);
    expect(((await registered()) as { id: number }[]).map((s) => s.id)).toEqual([second]);
    const ownerState = await t
      .as('owner')
      .post('/register', { fetch_event_types: ['saved_snippets'] });
    expect(ownerState.body.saved_snippets).toEqual([]);
  });
});
