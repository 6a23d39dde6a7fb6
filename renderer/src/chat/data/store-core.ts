import type { ZulipApi } from './api.js';
import type { ChatState } from './model.js';
import { initialChatState } from './state.js';
import { emptyBook, type UnreadBook } from './unread.js';

/**
 * What the store's parts (feed, reading, sending) share: the state and its
 * one setter, the unread book, the queue, and the clock, which tests replace.
 */

export interface Clock {
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
}

export const realClock: Clock = {
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  now: Date.now,
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export class StoreCore {
  state: ChatState = initialChatState();
  /** Replaced at each register; parts read it through the core, never keep it. */
  book: UnreadBook = emptyBook();
  queueId: string | null = null;
  closed = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly api: ZulipApi,
    readonly clock: Clock,
  ) {}

  set(next: ChatState): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
