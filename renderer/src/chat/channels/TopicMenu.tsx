import { useChat, useChatStore, useZulipApi } from '../data/store-context.js';
import { canResolveTopics } from '../message-actions/permissions.js';
import { resolveLabel, toggleTopicResolved } from '../message-actions/resolve-topic.js';
import { actionFailure, reportActionError } from '../ui/action-errors.js';
import { copyText } from '../ui/clipboard.js';
import { MenuButton, MenuItem, MenuSeparator } from '../ui/Menu.js';
import { narrowUrl } from '../ui/navigate.js';
import { topicChoices, topicPolicy } from './channel-model.js';

/**
 * The menu beside a topic (sidebar and recipient bar; Zulip's topic
 * popover): mute, unmute, follow (`POST /user_topics`), mark as
 * resolved or unresolved where the server allows it, mark as read, copy link.
 */
export function TopicMenu({ channelId, topic }: { channelId: number; topic: string }) {
  const api = useZulipApi();
  const store = useChatStore();
  const userTopics = useChat((s) => s.userTopics);
  const channelMuted = useChat((s) => s.subscriptions.get(channelId)?.is_muted === true);
  const policy = topicPolicy(userTopics, channelId, topic);
  const run = (what: string, call: () => Promise<unknown>) =>
    void call().catch((err) => reportActionError(actionFailure(what, err)));
  const narrow = [
    { operator: 'channel', operand: channelId },
    { operator: 'topic', operand: topic },
  ];
  const shownTopic = topic === '' ? 'general chat' : topic;

  return (
    <MenuButton
      label={`Actions for topic ${shownTopic}`}
      items={() => (
        <>
          {topicChoices(channelMuted, policy).map((choice) => (
            <MenuItem
              key={choice.label}
              onSelect={() =>
                run(choice.label.toLowerCase(), () =>
                  api.call('POST', '/user_topics', {
                    stream_id: channelId,
                    topic,
                    visibility_policy: choice.policy,
                  }),
                )
              }
            >
              {choice.label}
            </MenuItem>
          ))}
          <MenuSeparator />
          {canResolveTopics(store.getState(), channelId, topic) && (
            <MenuItem
              onSelect={() =>
                run(resolveLabel(topic).toLowerCase(), () =>
                  toggleTopicResolved(api, store.getState(), channelId, topic),
                )
              }
            >
              {resolveLabel(topic)}
            </MenuItem>
          )}
          <MenuItem
            onSelect={() =>
              run('mark the topic as read', () =>
                api.call('POST', '/mark_topic_as_read', {
                  stream_id: channelId,
                  topic_name: topic,
                }),
              )
            }
          >
            Mark all messages as read
          </MenuItem>
          <MenuItem
            onSelect={() =>
              run('copy the link', () =>
                copyText(narrowUrl(narrow, store.getState(), api.url('/'))),
              )
            }
          >
            Copy link to topic
          </MenuItem>
        </>
      )}
    />
  );
}
