import { describe, expect, it } from 'vitest';
import {
  draftKey,
  draftObject,
  draftTarget,
  localDrafts,
  serverDrafts,
} from '../../../renderer/src/chat/compose/drafts.js';
import type { ZulipApi } from '../../../renderer/src/chat/data/api.js';
import type { Draft } from '../../../renderer/src/chat/data/model.js';

const memoryStorage = () => {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  };
};

describe('draft identity', () => {
  it('keys a conversation by channel and topic, or by the sorted DM recipients', () => {
    expect(draftKey({ kind: 'channel', channelId: 4, topic: 'x' })).toBe('channel:4:x');
    expect(draftKey({ kind: 'direct', userIds: [10, 2] })).toBe('dm:2,10');
  });

  it('builds Zulip draft objects and reads their target back', () => {
    const channel = draftObject({ kind: 'channel', channelId: 4, topic: 'x' }, 'hi', 1_500);
    expect(channel).toEqual({ type: 'stream', to: [4], topic: 'x', content: 'hi', timestamp: 1.5 });
    expect(draftTarget(channel)).toEqual({ kind: 'channel', channelId: 4, topic: 'x' });
    const direct = draftObject({ kind: 'direct', userIds: [9, 3] }, 'yo', 0);
    expect(direct).toMatchObject({ type: 'private', to: [3, 9], topic: '' });
    expect(draftTarget(direct)).toEqual({ kind: 'direct', userIds: [3, 9] });
    expect(draftTarget({ type: '', to: [], topic: '', content: 'x' })).toBeNull();
  });
});

describe('local drafts', () => {
  it('keeps text per conversation and user, and forgets it when emptied or removed', async () => {
    const storage = memoryStorage();
    const drafts = localDrafts(storage, 7);
    const lunch = { kind: 'channel' as const, channelId: 1, topic: 'lunch' };
    await drafts.save(lunch, 'soup?');
    await drafts.save({ kind: 'direct', userIds: [2] }, 'psst');
    expect(localDrafts(storage, 7).load(lunch)).toBe('soup?');
    expect(localDrafts(storage, 8).load(lunch)).toBe('');
    await drafts.save(lunch, '  ');
    expect(drafts.load(lunch)).toBe('');
    await drafts.remove({ kind: 'direct', userIds: [2] });
    expect(JSON.parse(storage.items.get('hearth.chat.drafts.7')!)).toEqual({});
  });
});

describe('server drafts', () => {
  it('finds a new draft that got the id of one it removed (the server reuses ids)', async () => {
    const known = new Map<number, Draft>();
    const api = {
      call: async (method: string) => {
        if (method === 'POST') {
          known.set(1, {
            id: 1,
            type: 'stream',
            to: [1],
            topic: 'x',
            content: 'again',
            timestamp: 1,
          });
          return { ids: [1] };
        }
        if (method === 'DELETE') known.delete(1);
        return {};
      },
    } as unknown as ZulipApi;
    known.set(1, { id: 1, type: 'stream', to: [1], topic: 'x', content: 'first', timestamp: 1 });
    const drafts = serverDrafts(api, () => known);
    const x = { kind: 'channel' as const, channelId: 1, topic: 'x' };
    await drafts.remove(x);
    expect(drafts.load(x)).toBe('');
    await drafts.save(x, 'again');
    expect(drafts.load(x)).toBe('again');
  });

  it('removes a draft whose creation was still on its way when the message was sent', async () => {
    const calls: string[] = [];
    let answerPost: (value: { ids: number[] }) => void = () => {};
    const api = {
      call: (method: string, path: string) => {
        calls.push(`${method} ${path}`);
        if (method === 'POST') return new Promise((resolve) => (answerPost = resolve));
        return Promise.resolve({});
      },
    } as unknown as ZulipApi;
    const drafts = serverDrafts(api, () => new Map());
    const lunch = { kind: 'channel' as const, channelId: 1, topic: 'lunch' };
    const saving = drafts.save(lunch, 'about to send');
    const removing = drafts.remove(lunch);
    while (calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(['POST /drafts']);
    answerPost({ ids: [77] });
    await Promise.all([saving, removing]);
    expect(calls).toEqual(['POST /drafts', 'DELETE /drafts/77']);
  });

  it('creates a new draft when the one it patched was removed elsewhere', async () => {
    const calls: string[] = [];
    const api = {
      call: async (method: string, path: string) => {
        calls.push(`${method} ${path}`);
        if (path === '/drafts/5')
          throw Object.assign(new Error('Draft does not exist'), { status: 404 });
        return { ids: [40] };
      },
    } as unknown as ZulipApi;
    const known = new Map<number, Draft>([
      [5, { id: 5, type: 'private', to: [2], topic: '', content: 'old', timestamp: 1 }],
    ]);
    const drafts = serverDrafts(api, () => known);
    await drafts.save({ kind: 'direct', userIds: [2] }, 'new');
    await drafts.save({ kind: 'direct', userIds: [2] }, 'newer');
    expect(calls).toEqual(['PATCH /drafts/5', 'POST /drafts', 'PATCH /drafts/40']);
  });

  it('creates once, then patches, then deletes, finding drafts from register too', async () => {
    const calls: string[] = [];
    const api = {
      call: async (method: string, path: string, params?: Record<string, unknown>) => {
        calls.push(`${method} ${path} ${JSON.stringify(params ?? {})}`);
        return method === 'POST' ? { ids: [31] } : {};
      },
    } as unknown as ZulipApi;
    const known = new Map<number, Draft>([
      [5, { id: 5, type: 'private', to: [2], topic: '', content: 'old', timestamp: 1 }],
    ]);
    const drafts = serverDrafts(
      api,
      () => known,
      () => 2_000,
    );
    const lunch = { kind: 'channel' as const, channelId: 1, topic: 'lunch' };
    expect(drafts.load({ kind: 'direct', userIds: [2] })).toBe('old');
    await drafts.save(lunch, 'a');
    await drafts.save(lunch, 'ab');
    await drafts.remove(lunch);
    await drafts.save({ kind: 'direct', userIds: [2] }, '');
    expect(calls).toEqual([
      'POST /drafts {"drafts":[{"type":"stream","to":[1],"topic":"lunch","content":"a","timestamp":2}]}',
      'PATCH /drafts/31 {"draft":{"type":"stream","to":[1],"topic":"lunch","content":"ab","timestamp":2}}',
      'DELETE /drafts/31 {}',
      'DELETE /drafts/5 {}',
    ]);
  });
});

describe("the Drafts view's list", () => {
  it('lists local drafts newest first with their conversations', async () => {
    let now = 1_000_000;
    const drafts = localDrafts(memoryStorage(), 7, () => now);
    await drafts.save({ kind: 'channel', channelId: 4, topic: 'a: b' }, 'older');
    now += 5_000;
    await drafts.save({ kind: 'direct', userIds: [9, 3] }, 'newer');
    expect(drafts.list()).toEqual([
      { target: { kind: 'direct', userIds: [3, 9] }, content: 'newer', timestamp: 1_005 },
      {
        target: { kind: 'channel', channelId: 4, topic: 'a: b' },
        content: 'older',
        timestamp: 1_000,
      },
    ]);
  });

  it("lists the server's drafts newest first", () => {
    const map = new Map<number, Draft>([
      [1, { id: 1, type: 'stream', to: [4], topic: 't', content: 'one', timestamp: 10 }],
      [2, { id: 2, type: 'private', to: [3], topic: '', content: 'two', timestamp: 20 }],
      [3, { id: 3, type: 'private', to: [3], topic: '', content: '  ', timestamp: 30 }],
    ]);
    const drafts = serverDrafts({} as ZulipApi, () => map);
    expect(drafts.list().map((d) => d.content)).toEqual(['two', 'one']);
  });
});
