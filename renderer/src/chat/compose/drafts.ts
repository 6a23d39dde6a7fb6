/**
 * Unsent text per conversation. With `enable_drafts_synchronization` on,
 * drafts live on the server (`/drafts`, so other clients see them too);
 * otherwise in this browser's localStorage, scoped to the user.
 */
import type { ZulipApi } from '../data/api.js';
import type { ComposeTarget, Draft } from '../data/model.js';

/** Zulip's Draft object as a client sends it (POST /drafts, PATCH /drafts/{id}): no `id`. */
type DraftFields = Omit<Draft, 'id'>;

/** One conversation's identity: `channel:{id}:{topic}` or `dm:{sorted ids}`. */
export function draftKey(target: ComposeTarget): string {
  if (target.kind === 'channel') return `channel:${target.channelId}:${target.topic}`;
  return `dm:${[...target.userIds].sort((a, b) => a - b).join(',')}`;
}

/** Zulip's Draft object (without `id`) for a target. */
export function draftObject(target: ComposeTarget, content: string, nowMs: number): DraftFields {
  const timestamp = nowMs / 1000;
  return target.kind === 'channel'
    ? { type: 'stream', to: [target.channelId], topic: target.topic, content, timestamp }
    : {
        type: 'private',
        to: [...target.userIds].sort((a, b) => a - b),
        topic: '',
        content,
        timestamp,
      };
}

/** The conversation a server draft is for, when it names one. */
export function draftTarget(draft: DraftFields): ComposeTarget | null {
  const [channelId, ...others] = draft.to;
  if (draft.type === 'stream' && channelId !== undefined && others.length === 0) {
    return { kind: 'channel', channelId, topic: draft.topic };
  }
  if (draft.type === 'private' && draft.to.length > 0) return { kind: 'direct', userIds: draft.to };
  return null;
}

/** One draft as Zulip's Drafts view lists it. */
export interface DraftEntry {
  target: ComposeTarget;
  content: string;
  /** Unix seconds of the last change. */
  timestamp: number;
}

const newestFirst = (entries: DraftEntry[]) =>
  entries.filter((e) => e.content.trim() !== '').sort((a, b) => b.timestamp - a.timestamp);

/** The conversation a `draftKey` names (null for a key this version did not write). */
export function targetOfKey(key: string): ComposeTarget | null {
  const channel = /^channel:(\d+):([\s\S]*)$/.exec(key);
  if (channel) return { kind: 'channel', channelId: Number(channel[1]), topic: channel[2]! };
  const dm = /^dm:(\d+(?:,\d+)*)$/.exec(key);
  if (dm) return { kind: 'direct', userIds: dm[1]!.split(',').map(Number) };
  return null;
}

export interface DraftStore {
  /** Every draft, newest first (Zulip's Drafts view). */
  list(): DraftEntry[];
  /** The saved text for the conversation ('' when none). */
  load(target: ComposeTarget): string;
  /** Keeps `content` for the conversation; empty text removes the draft. */
  save(target: ComposeTarget, content: string): Promise<void>;
  remove(target: ComposeTarget): Promise<void>;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

const isNotFound = (err: unknown) =>
  err instanceof Error && 'status' in err && (err as { status: unknown }).status === 404;

/** Drafts in localStorage under one key per user. */
export function localDrafts(
  storage: KeyValueStorage | null,
  ownUserId: number,
  now = Date.now,
): DraftStore {
  const key = `hearth.chat.drafts.${ownUserId}`;
  const read = (): Record<string, { content: string; timestamp: number }> => {
    try {
      return JSON.parse(storage?.getItem(key) ?? '{}');
    } catch {
      return {};
    }
  };
  const write = (all: Record<string, { content: string; timestamp: number }>) => {
    try {
      storage?.setItem(key, JSON.stringify(all));
    } catch {
      // A full or refused storage: the text stays in the box only.
    }
  };
  return {
    list: () =>
      newestFirst(
        Object.entries(read()).flatMap(([key, draft]) => {
          const target = targetOfKey(key);
          return target ? [{ target, content: draft.content, timestamp: draft.timestamp }] : [];
        }),
      ),
    load: (target) => read()[draftKey(target)]?.content ?? '',
    async save(target, content) {
      const all = read();
      if (content.trim() === '') delete all[draftKey(target)];
      else all[draftKey(target)] = { content, timestamp: Math.floor(now() / 1000) };
      write(all);
    },
    async remove(target) {
      const all = read();
      delete all[draftKey(target)];
      write(all);
    },
  };
}

/**
 * Drafts on the server. `drafts` is the store's map (register + events);
 * ids this tab created are remembered until their event arrives, so a
 * second save patches rather than creating another draft.
 */
export function serverDrafts(
  api: ZulipApi,
  drafts: () => ReadonlyMap<number, Draft>,
  now = Date.now,
): DraftStore {
  const created = new Map<string, number>();
  /**
   * Ids the server no longer has, though the store may not have heard yet;
   * forgotten once the store drops them (the server reuses freed ids).
   */
  const ignored = new Set<number>();
  const pruneIgnored = () => {
    const known = drafts();
    for (const id of ignored) if (!known.has(id)) ignored.delete(id);
  };
  const idFor = (target: ComposeTarget): number | undefined => {
    const key = draftKey(target);
    const mine = created.get(key);
    if (mine !== undefined) return mine;
    pruneIgnored();
    for (const [id, draft] of drafts()) {
      const t = draftTarget(draft);
      if (t && draftKey(t) === key && !ignored.has(id)) return id;
    }
    return undefined;
  };
  /**
   * One conversation's requests run one after another: a send's removal
   * must not overtake the creation still on its way, or the draft outlives
   * the message.
   */
  const turns = new Map<string, Promise<void>>();
  const inTurn = (target: ComposeTarget, run: () => Promise<void>): Promise<void> => {
    const key = draftKey(target);
    const next = (turns.get(key) ?? Promise.resolve()).catch(() => {}).then(run);
    turns.set(key, next);
    return next;
  };

  const removeNow = async (target: ComposeTarget) => {
    const id = idFor(target);
    created.delete(draftKey(target));
    if (id === undefined) return;
    try {
      await api.call('DELETE', `/drafts/${id}`);
    } catch (err) {
      // Another client already removed it: the goal is reached.
      if (!isNotFound(err)) throw err;
    }
    ignored.add(id);
  };

  const saveNow = async (target: ComposeTarget, content: string) => {
    if (content.trim() === '') return removeNow(target);
    const draft = draftObject(target, content, now());
    const id = idFor(target);
    if (id !== undefined) {
      try {
        await api.call('PATCH', `/drafts/${id}`, { draft });
        return;
      } catch (err) {
        // Removed meanwhile (sent or deleted from another client): keep the text as a new draft.
        if (!isNotFound(err)) throw err;
        created.delete(draftKey(target));
        ignored.add(id);
      }
    }
    const answer = await api.call<{ ids: number[] }>('POST', '/drafts', { drafts: [draft] });
    const newId = answer.ids[0];
    if (newId !== undefined) {
      created.set(draftKey(target), newId);
      ignored.delete(newId);
    }
  };

  return {
    list() {
      pruneIgnored();
      const entries: DraftEntry[] = [];
      for (const [id, draft] of drafts()) {
        const target = draftTarget(draft);
        if (!target || ignored.has(id)) continue;
        entries.push({ target, content: draft.content, timestamp: draft.timestamp ?? 0 });
      }
      return newestFirst(entries);
    },
    load(target) {
      const key = draftKey(target);
      pruneIgnored();
      for (const [id, draft] of drafts()) {
        const t = draftTarget(draft);
        if (t && draftKey(t) === key && !ignored.has(id)) return draft.content;
      }
      return '';
    },
    save: (target, content) => inTurn(target, () => saveNow(target, content)),
    remove: (target) => inTurn(target, () => removeNow(target)),
  };
}
