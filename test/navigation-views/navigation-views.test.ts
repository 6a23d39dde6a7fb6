/**
 * Navigation views (Zulip's navigation_views.py): GET/POST
 * /navigation_views, PATCH/DELETE /navigation_views/{fragment}, the
 * navigation_view events to the user's own queues only, and register's
 * navigation_views.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/support.js';
import { receivers, Watchers } from '../helpers/event-queues.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let watchers: Watchers;

beforeAll(async () => {
  t = await startTestServer();
  watchers = new Watchers(t);
  for (const who of ['member', 'owner', 'guest']) await watchers.add(who);
});
afterAll(() => t.close());
beforeEach(() => watchers.clear());

const registered = async (who: 'member' | 'guest' = 'member') =>
  (await t.as(who).post('/register', { fetch_event_types: ['navigation_views'] })).body
    .navigation_views;

describe('navigation views', () => {
  it('adds a built-in view’s setting and a custom view, for the user alone', async () => {
    expect(
      (await t.as('member').post('/navigation_views', { fragment: 'inbox', is_pinned: false }))
        .body,
    ).toEqual({ result: 'success', msg: '' });
    expect(
      (
        await t.as('member').post('/navigation_views', {
          fragment: 'narrow/channel/9-design',
          is_pinned: true,
          name: ' Design ',
        })
      ).status,
    ).toBe(200);
    const views = [
      { fragment: 'inbox', is_pinned: false, name: null },
      { fragment: 'narrow/channel/9-design', is_pinned: true, name: 'Design' },
    ];
    expect((await t.as('member').get('/navigation_views')).body.navigation_views).toEqual(views);
    expect(await registered()).toEqual(views);
    expect(await registered('guest')).toEqual([]);
    const events = await watchers.take('navigation_view');
    expect(receivers(events)).toEqual(['member']);
    expect(events.member).toEqual([
      { id: expect.any(Number), type: 'navigation_view', op: 'add', navigation_view: views[0] },
      { id: expect.any(Number), type: 'navigation_view', op: 'add', navigation_view: views[1] },
    ]);
  });

  it('refuses what Zulip refuses', async () => {
    const add = (params: Record<string, unknown>) =>
      t.as('guest').post('/navigation_views', params);
    expectError(
      await add({ fragment: 'recent', is_pinned: true, name: 'Mine' }),
      400,
      'BAD_REQUEST',
      'Built-in views cannot have a custom name.',
    );
    expectError(
      await add({ fragment: 'narrow/is/dm', is_pinned: true }),
      400,
      'BAD_REQUEST',
      'Custom views must have a valid name.',
    );
    expect((await add({ fragment: 'narrow/is/dm', is_pinned: true, name: 'DMs' })).status).toBe(
      200,
    );
    expectError(
      await add({ fragment: 'narrow/is/dm', is_pinned: false, name: 'Other' }),
      400,
      'BAD_REQUEST',
      'Navigation view already exists.',
    );
    expectError(
      await add({ fragment: 'narrow/is/alerted', is_pinned: false, name: 'DMs' }),
      400,
      'BAD_REQUEST',
      'Navigation view already exists.',
    );
    expectError(
      await add({ fragment: '  ', is_pinned: false }),
      400,
      'BAD_REQUEST',
      'fragment cannot be blank',
    );
    expectError(
      await add({ fragment: 'feed', is_pinned: 'yes' }),
      400,
      'BAD_REQUEST',
      'is_pinned is not valid JSON',
    );
  });

  it('updates and removes by fragment, slashes and all', async () => {
    await t
      .as('owner')
      .post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: true });
    await t
      .as('owner')
      .post('/navigation_views', { fragment: 'narrow/topic/x', is_pinned: false, name: 'X' });
    await watchers.clear();
    expect(
      (await t.as('owner').patch('/navigation_views/narrow/is/starred', { is_pinned: false }))
        .status,
    ).toBe(200);
    expect(
      (await t.as('owner').patch('/navigation_views/narrow%2Ftopic%2Fx', { name: 'Topic X' }))
        .status,
    ).toBe(200);
    expectError(
      await t.as('owner').patch('/navigation_views/narrow/is/starred', { name: 'Stars' }),
      400,
      'BAD_REQUEST',
      'Built-in views cannot have a custom name.',
    );
    const events = await watchers.take('navigation_view');
    expect(events.owner).toEqual([
      {
        id: expect.any(Number),
        type: 'navigation_view',
        op: 'update',
        fragment: 'narrow/is/starred',
        data: { is_pinned: false },
      },
      {
        id: expect.any(Number),
        type: 'navigation_view',
        op: 'update',
        fragment: 'narrow/topic/x',
        data: { name: 'Topic X' },
      },
    ]);
    expect((await t.as('owner').delete('/navigation_views/narrow/is/starred')).status).toBe(200);
    expect((await watchers.take('navigation_view')).owner).toEqual([
      {
        id: expect.any(Number),
        type: 'navigation_view',
        op: 'remove',
        fragment: 'narrow/is/starred',
      },
    ]);
    expectError(
      await t.as('owner').delete('/navigation_views/narrow/is/starred'),
      404,
      'BAD_REQUEST',
      'Navigation view does not exist.',
    );
    expectError(
      await t.as('member').patch('/navigation_views/narrow/topic/x', { is_pinned: true }),
      404,
      'BAD_REQUEST',
      'Navigation view does not exist.',
    );
  });
});
