import type { Params } from './api.js';
import type { ComposeTarget, Message } from './model.js';
import { isLocalId, mergeIds, removeMessages, replaceMessages } from './model-updates.js';
import { messageMatchesNarrow, narrowIsLocal } from './narrow.js';
import type { StoreCore } from './store-core.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Sending with local echo: the message shows at once under a fractional id
 * just above the newest (Zulip's local ids), and the server's `message`
 * event (with `local_message_id`) replaces it; a failed send marks it.
 */
export class Sending {
  private echoes = 0;
  /** What each unconfirmed echo was, so a failed one can be sent again. */
  private readonly sent = new Map<number, { target: ComposeTarget; content: string }>();

  constructor(private readonly core: StoreCore) {}

  private newestServerId(): number {
    let newest = 0;
    for (const id of this.core.state.messages.keys()) {
      if (!isLocalId(id) && id > newest) newest = id;
    }
    return newest;
  }

  private echoOf(target: ComposeTarget, content: string, id: number, localId: string): Message {
    const { state } = this.core;
    const me = state.users.get(state.ownUserId);
    const base = {
      id,
      sender_id: state.ownUserId,
      sender_full_name: me?.full_name ?? '',
      sender_email: me?.email ?? '',
      avatar_url: me?.avatar_url ?? null,
      // Shown as typed until the server renders it.
      content: `<p>${escapeHtml(content)}</p>`,
      timestamp: Math.floor(this.core.clock.now() / 1000),
      flags: ['read'],
      reactions: [],
      submessages: [],
      local_id: localId,
    };
    if (target.kind === 'channel') {
      const name =
        state.subscriptions.get(target.channelId)?.name ??
        state.channels.get(target.channelId)?.name ??
        '';
      return {
        ...base,
        type: 'stream',
        stream_id: target.channelId,
        subject: target.topic,
        display_recipient: name,
      };
    }
    const recipients = [...new Set([state.ownUserId, ...target.userIds])].map((userId) => {
      const user = state.users.get(userId);
      return { id: userId, email: user?.email ?? '', full_name: user?.full_name ?? '' };
    });
    return { ...base, type: 'private', subject: '', display_recipient: recipients };
  }

  async send(target: ComposeTarget, content: string): Promise<number> {
    const { core } = this;
    this.echoes++;
    const id = this.newestServerId() + this.echoes / 1000;
    const localId = id.toFixed(3);
    const echo = this.echoOf(target, content, id, localId);
    let next = replaceMessages(core.state, [echo]);
    const list = next.list;
    if (
      list?.foundNewest &&
      narrowIsLocal(list.narrow) &&
      messageMatchesNarrow(echo, list.narrow, next)
    ) {
      next = { ...next, list: { ...list, ids: mergeIds(list.ids, [id]) } };
    }
    core.set(next);
    this.sent.set(id, { target, content });
    const params: Params =
      target.kind === 'channel'
        ? { type: 'stream', to: target.channelId, topic: target.topic, content }
        : { type: 'direct', to: target.userIds, content };
    try {
      const answer = await core.api.call<{ id: number }>('POST', '/messages', {
        ...params,
        read_by_sender: true,
        queue_id: core.queueId ?? undefined,
        local_id: localId,
      });
      // The event replaces the echo; nothing is left to retry.
      this.sent.delete(id);
      return answer.id;
    } catch (err) {
      const current = core.state.messages.get(id);
      if (current) core.set(replaceMessages(core.state, [{ ...current, failed: true }]));
      throw err;
    }
  }

  async retry(echoId: number): Promise<number> {
    const original = this.sent.get(echoId);
    if (!original || !this.core.state.messages.get(echoId)?.failed) {
      throw new Error('Only a message that failed to send can be sent again.');
    }
    this.discard(echoId);
    return this.send(original.target, original.content);
  }

  discard(echoId: number): void {
    if (!this.core.state.messages.get(echoId)?.failed) return;
    this.sent.delete(echoId);
    this.core.set(removeMessages(this.core.state, this.core.book, [echoId]));
  }
}
