import type { ChatState, Narrow } from '../../data/model.js';
import {
  canonicalOperatorOf,
  composeTargetFor,
  directKey,
  dmKey,
  topicKey,
} from '../../data/narrow.js';
import { useChat } from '../../data/store-context.js';

/** Zulip's web app names at most this many typists; more are "Several people". */
const MAX_NAMED = 3;

/**
 * The conversation a narrow shows, by the keys of `ChatState.typing`: a
 * channel's topic or a DM conversation; null for every other view, which
 * (as in Zulip) shows no typing notices.
 */
export function typingKeyOf(narrow: Narrow, state: ChatState): string | null {
  const hasTopic = narrow.some((t) => canonicalOperatorOf(t.operator) === 'topic' && !t.negated);
  const target = composeTargetFor(narrow, state);
  if (!target) return null;
  if (target.kind === 'direct') return directKey(dmKey(target.userIds, state.ownUserId));
  return hasTopic ? topicKey(target.channelId, target.topic) : null;
}

/**
 * Zulip's typing notices: "Ada is typing…" for each typist, up to three;
 * more are "Several people are typing…".
 */
export function typingNotices(names: string[]): string[] {
  if (names.length > MAX_NAMED) return ['Several people are typing…'];
  return names.map((name) => `${name} is typing…`);
}

/**
 * Who is typing in the conversation the feed shows, under its messages
 * (Zulip's typing notifications); muted users are left out, as Zulip does.
 */
export function TypingNotice({ narrow }: { narrow: Narrow }) {
  const text = useChat((s) => {
    const key = typingKeyOf(narrow, s);
    // Not a conversation: no line kept for a notice that cannot come.
    if (key === null) return null;
    const ids = s.typing.get(key);
    if (!ids || ids.length === 0) return '';
    const names = ids
      .filter((id) => !s.mutedUserIds.has(id))
      .map((id) => s.users.get(id)?.full_name)
      .filter((name): name is string => name !== undefined);
    return typingNotices(names).join(' ');
  });
  if (text === null) return null;
  return (
    <p className="typing-notice" aria-live="polite">
      {text}
    </p>
  );
}
