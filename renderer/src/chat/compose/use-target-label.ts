import { useMemo } from 'react';
import type { ComposeTarget } from '../data/model.js';
import { useChat } from '../data/store-context.js';

/** "#general > lunch" or "Alice, Bob": the conversation a target names. */
export function useTargetLabel(target: ComposeTarget | null): string {
  const channels = useChat((s) => s.channels);
  const subscriptions = useChat((s) => s.subscriptions);
  const users = useChat((s) => s.users);
  const key =
    target === null
      ? ''
      : target.kind === 'channel'
        ? `c${target.channelId}>${target.topic}`
        : `d${target.userIds.join(',')}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on what the target names
  return useMemo(() => {
    if (!target) return '';
    if (target.kind === 'channel') {
      const name =
        subscriptions.get(target.channelId)?.name ?? channels.get(target.channelId)?.name ?? '…';
      return target.topic === '' ? `#${name}` : `#${name} > ${target.topic}`;
    }
    return target.userIds.map((id) => users.get(id)?.full_name ?? `User ${id}`).join(', ');
  }, [key, channels, subscriptions, users]);
}
