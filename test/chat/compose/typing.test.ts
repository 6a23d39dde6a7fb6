import { beforeEach, describe, expect, it } from 'vitest';
import {
  type TypingClock,
  TypingNotifier,
  typingParams,
} from '../../../renderer/src/chat/compose/typing.js';
import type { ComposeTarget } from '../../../renderer/src/chat/data/model.js';

/** A clock the test moves by hand; timers fire when it passes them. */
class ManualClock implements TypingClock {
  time = 0;
  private timers = new Map<number, { at: number; run: () => void }>();
  private next = 1;
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => {
    const id = this.next++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers.delete(handle as number);
  };
  advance(ms: number) {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = end;
  }
}

const lunch: ComposeTarget = { kind: 'channel', channelId: 5, topic: 'lunch' };
const dm: ComposeTarget = { kind: 'direct', userIds: [9, 3] };

let clock: ManualClock;
let sent: string[];
let notifier: TypingNotifier;

beforeEach(() => {
  clock = new ManualClock();
  sent = [];
  notifier = new TypingNotifier(
    (op, target) => sent.push(`${clock.time} ${op} ${JSON.stringify(typingParams(op, target))}`),
    { startedWaitMs: 10_000, stoppedWaitMs: 5_000 },
    clock,
  );
});

const ops = () => sent.map((s) => s.split(' ').slice(0, 2).join(' '));

describe('typing notifications', () => {
  it('starts once, repeats start every 10 s while typing, stops after 5 s idle', () => {
    for (let t = 0; t <= 12_000; t += 1_000) {
      clock.time = t;
      notifier.typed(lunch, true);
    }
    expect(ops()).toEqual(['0 start', '10000 start']);
    clock.advance(4_999);
    expect(ops()).toHaveLength(2);
    clock.advance(1);
    expect(ops()).toEqual(['0 start', '10000 start', '17000 stop']);
  });

  it('sends channel and DM parameters the way POST /typing takes them', () => {
    expect(typingParams('start', lunch)).toEqual({
      op: 'start',
      type: 'stream',
      stream_id: 5,
      topic: 'lunch',
    });
    expect(typingParams('stop', dm)).toEqual({ op: 'stop', type: 'direct', to: [9, 3] });
  });

  it('stops the old conversation before starting the new one', () => {
    notifier.typed(lunch, true);
    clock.advance(1_000);
    notifier.typed(dm, true);
    expect(sent.map((s) => s.split(' ').slice(1).join(' '))).toEqual([
      `start ${JSON.stringify(typingParams('start', lunch))}`,
      `stop ${JSON.stringify(typingParams('stop', lunch))}`,
      `start ${JSON.stringify(typingParams('start', dm))}`,
    ]);
  });

  it('treats DM recipients in another order as the same conversation', () => {
    notifier.typed(dm, true);
    notifier.typed({ kind: 'direct', userIds: [3, 9] }, true);
    expect(ops()).toEqual(['0 start']);
  });

  it('stops at once when the text is emptied or sent, and only once', () => {
    notifier.typed(lunch, true);
    notifier.typed(lunch, false);
    expect(ops()).toEqual(['0 start', '0 stop']);
    notifier.stop();
    clock.advance(10_000);
    expect(ops()).toEqual(['0 start', '0 stop']);
  });

  it('sends nothing while the target is incomplete', () => {
    notifier.typed(null, true);
    clock.advance(10_000);
    expect(sent).toEqual([]);
  });
});
