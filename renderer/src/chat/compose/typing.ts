/**
 * Typing notifications with Zulip's timing: `start` when typing begins in a
 * conversation and again every `server_typing_started_wait_period` while it
 * goes on; `stop` after `server_typing_stopped_wait_period` without a
 * keystroke, when the conversation changes, the text is emptied or sent.
 */
import type { ComposeTarget } from '../data/model.js';

export type TypingOp = 'start' | 'stop';

/** The `POST /typing` parameters for a target. */
export function typingParams(op: TypingOp, target: ComposeTarget): Record<string, unknown> {
  return target.kind === 'channel'
    ? { op, type: 'stream', stream_id: target.channelId, topic: target.topic }
    : { op, type: 'direct', to: target.userIds };
}

const sortedIds = (ids: number[]) => [...ids].sort((x, y) => x - y).join(',');
const sameTarget = (a: ComposeTarget, b: ComposeTarget) =>
  a.kind === 'channel'
    ? b.kind === 'channel' && a.channelId === b.channelId && a.topic === b.topic
    : b.kind === 'direct' && sortedIds(a.userIds) === sortedIds(b.userIds);

export interface TypingClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: TypingClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface TypingPeriods {
  /** How often `start` is repeated while typing goes on (ms). */
  startedWaitMs: number;
  /** Idle time after which `stop` is sent (ms). */
  stoppedWaitMs: number;
}

/** Zulip's defaults, used when register does not say. */
export const DEFAULT_TYPING_PERIODS: TypingPeriods = {
  startedWaitMs: 10_000,
  stoppedWaitMs: 5_000,
};

export class TypingNotifier {
  private current: ComposeTarget | null = null;
  private lastStart = 0;
  private idleTimer: unknown = null;

  constructor(
    private readonly send: (op: TypingOp, target: ComposeTarget) => void,
    private readonly periods: TypingPeriods = DEFAULT_TYPING_PERIODS,
    private readonly clock: TypingClock = realClock,
  ) {}

  /**
   * After each edit of the text: `target` is where it would go (null when
   * incomplete), `hasText` whether anything is left to send.
   */
  typed(target: ComposeTarget | null, hasText: boolean): void {
    if (!target || !hasText) {
      this.stop();
      return;
    }
    if (this.current && !sameTarget(this.current, target)) this.stop();
    const now = this.clock.now();
    if (!this.current || now - this.lastStart >= this.periods.startedWaitMs) {
      this.current = target;
      this.lastStart = now;
      this.send('start', target);
    }
    this.restartIdleTimer();
  }

  /** Typing ended (sent, emptied, another conversation, the box closed). */
  stop(): void {
    this.clearIdleTimer();
    if (!this.current) return;
    const target = this.current;
    this.current = null;
    this.send('stop', target);
  }

  private restartIdleTimer(): void {
    this.clearIdleTimer();
    this.idleTimer = this.clock.setTimeout(() => {
      this.idleTimer = null;
      this.stop();
    }, this.periods.stoppedWaitMs);
  }

  private clearIdleTimer(): void {
    if (this.idleTimer !== null) this.clock.clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
