import { ApiError } from './api.js';
import type { Message, Narrow } from './model.js';
import { recountUnread, replaceMessages } from './model-updates.js';
import { canonicalOperatorOf, wireNarrow } from './narrow.js';
import type { StoreCore } from './store-core.js';
import { forget } from './unread.js';

/** mark-read requests wait this long to gather what the feed shows next. */
const MARK_READ_DELAY_MS = 100;
/** After a failed mark-read, the next try waits this long. */
const MARK_READ_RETRY_MS = 1_000;
/** Zulip's batch for POST /messages/flags/narrow. */
const FLAGS_NARROW_BATCH = 1000;

/**
 * Marking messages read: at once on screen (as Zulip's web app does), sent
 * in coalesced batches; whole narrows with the endpoint Zulip has for them.
 */
export class Reading {
  private readonly pending = new Set<number>();
  /** Reads in the request on its way (the server may not have them yet when a fetch answers). */
  private readonly sending = new Set<number>();
  private timer: unknown = null;
  private inFlight = false;

  constructor(private readonly core: StoreCore) {}

  /** Whether this tab read the message and the server may not know yet. */
  isUnsent(id: number): boolean {
    return this.pending.has(id) || this.sending.has(id);
  }

  unsent(): number[] {
    return [...this.pending, ...this.sending];
  }

  markRead(ids: number[]): void {
    const { core } = this;
    const unread = ids.filter((id) => Number.isInteger(id) && core.book.places.has(id));
    if (unread.length === 0) return;
    const changed: Message[] = [];
    for (const id of unread) {
      forget(core.book, id);
      this.pending.add(id);
      const message = core.state.messages.get(id);
      if (message && !message.flags.includes('read')) {
        changed.push({ ...message, flags: [...message.flags, 'read'] });
      }
    }
    core.set(recountUnread(replaceMessages(core.state, changed), core.book));
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null || this.inFlight) return;
    this.timer = this.core.clock.setTimer(() => {
      this.timer = null;
      void this.flush();
    }, MARK_READ_DELAY_MS);
  }

  /** Sends what is waiting now (log-out sends it before the key goes). */
  async flush(): Promise<void> {
    if (this.timer !== null) {
      this.core.clock.clearTimer(this.timer);
      this.timer = null;
    }
    if (this.pending.size === 0 || this.core.closed) return;
    const messages = [...this.pending];
    this.pending.clear();
    for (const id of messages) this.sending.add(id);
    this.inFlight = true;
    try {
      await this.core.api.call('POST', '/messages/flags', { messages, op: 'add', flag: 'read' });
    } catch (err) {
      // Put them back for the next flush unless the request itself was refused.
      if (err instanceof ApiError && err.status !== 401 && err.status !== 400) {
        for (const id of messages) this.pending.add(id);
        await this.core.clock.sleep(MARK_READ_RETRY_MS);
      }
    } finally {
      this.inFlight = false;
      for (const id of messages) this.sending.delete(id);
    }
    if (this.pending.size > 0) this.schedule();
  }

  stop(): void {
    if (this.timer !== null) this.core.clock.clearTimer(this.timer);
    this.timer = null;
  }

  /** Every message of the narrow: mark_all_as_read, mark_stream_as_read, mark_topic_as_read or flags/narrow. */
  async markNarrowRead(narrow: Narrow): Promise<void> {
    const { api, state } = this.core;
    const terms = wireNarrow(narrow);
    const only = (ops: string[]) =>
      terms.length === ops.length &&
      terms.every((t, i) => !t.negated && canonicalOperatorOf(t.operator) === ops[i]);
    const channelId = (term: Narrow[number] | undefined) => {
      if (!term) return null;
      if (typeof term.operand === 'number') return term.operand;
      const name = String(term.operand).toLowerCase();
      return (
        [...state.channels.values()].find((c) => c.name.toLowerCase() === name)?.stream_id ?? null
      );
    };
    try {
      if (terms.length === 0 || (only(['in']) && terms[0]!.operand === 'home')) {
        await api.call('POST', '/mark_all_as_read');
        return;
      }
      const channel = channelId(terms[0]);
      if (only(['channel']) && channel !== null) {
        await api.call('POST', '/mark_stream_as_read', { stream_id: channel });
        return;
      }
      if (only(['channel', 'topic']) && channel !== null) {
        await api.call('POST', '/mark_topic_as_read', {
          stream_id: channel,
          topic_name: String(terms[1]!.operand),
        });
        return;
      }
      let anchor: number | 'oldest' = 'oldest';
      let includeAnchor = true;
      for (;;) {
        const answer: { found_newest: boolean; last_processed_id: number | null } = await api.call(
          'POST',
          '/messages/flags/narrow',
          {
            anchor,
            include_anchor: includeAnchor,
            num_before: 0,
            num_after: FLAGS_NARROW_BATCH,
            narrow: terms,
            op: 'add',
            flag: 'read',
          },
        );
        if (answer.found_newest || answer.last_processed_id === null) return;
        anchor = answer.last_processed_id;
        includeAnchor = false;
      }
    } catch {
      // The counts stay as they are (the events never came); the user can try again.
    }
  }
}
