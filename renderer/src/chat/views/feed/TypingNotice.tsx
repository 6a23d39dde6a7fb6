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

/** "Ada is typing…", "Ada and Mo are typing…", "Several people are typing…", as Zulip words them. */
export function typingText(names: string[]): string {
  if (names.length === 0) return '';
  if (names.length > MAX_NAMED) return 'Several people are typing…';
  if (names.length === 1) return `${names[0]} is typing…`;
  const list = `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `${list} are typing…`;
}

/**
 * Who is typing in the conversation the feed shows, under its messages
 * (Zulip's typing notifications); muted users are left out, as Zulip does.
 */
export function TypingNotice({ narrow }: { narrow: Narrow }) {
  const text = useChat((s) => {
    const key = typingKeyOf(narrow, s);
    const ids = key === null ? undefined : s.typing.get(key);
    if (!ids || ids.length === 0) return '';
    const names = ids
      .filter((id) => !s.mutedUserIds.has(id))
      .map((id) => s.users.get(id)?.full_name)
      .filter((name): name is string => name !== undefined);
    return typingText(names);
  });
  return (
    <p className="typing-notice" aria-live="polite">
      {text}
    </p>
  );
}
