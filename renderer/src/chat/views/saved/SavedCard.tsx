import type { ReactNode } from 'react';
import { useTargetLabel } from '../../compose/use-target-label.js';
import type { ChatState, ComposeTarget } from '../../data/model.js';
import { useChat, useChatStore } from '../../data/store-context.js';
import { dmNarrow, topicNarrow } from '../narrows.js';
import { hashFor } from '../routing.js';

/** The narrow of the conversation a draft or scheduled message is for. */
export function conversationHash(target: ComposeTarget, state: ChatState): string {
  return hashFor(
    target.kind === 'channel'
      ? topicNarrow(target.channelId, target.topic)
      : dmNarrow(target.userIds, state.ownUserId),
    state,
  );
}

/**
 * One draft or scheduled message in its view: the conversation it is for
 * (as a recipient bar), when, its text, and its actions.
 */
export function SavedCard({
  target,
  when,
  children,
  actions,
  failed,
}: {
  target: ComposeTarget;
  when: string;
  children: ReactNode;
  actions: ReactNode;
  failed?: boolean;
}) {
  const state = useChatStore().getState();
  const color = useChat((s) =>
    target.kind === 'channel' ? s.subscriptions.get(target.channelId)?.color : undefined,
  );
  const label = useTargetLabel(target);
  const ownUserId = useChat((s) => s.ownUserId);
  const toSelf = target.kind === 'direct' && target.userIds.every((id) => id === ownUserId);
  return (
    <li className={failed ? 'saved-card failed' : 'saved-card'}>
      <div className="saved-card-bar" style={color ? { borderLeftColor: color } : undefined}>
        <a href={conversationHash(target, state)} className="saved-card-where">
          {target.kind === 'direct'
            ? toSelf
              ? 'Messages with yourself'
              : `You and ${label}`
            : label}
        </a>
        <span className="saved-card-when">{when}</span>
      </div>
      <div className="saved-card-body">{children}</div>
      <div className="saved-card-actions">{actions}</div>
    </li>
  );
}
