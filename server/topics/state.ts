import { mutedTopicsList, userTopicsInActiveChannels } from '../db/queries/user-topics.js';
import type { StateProvider } from '../events/state-provider.js';
import { emptyTopicReplacement, topicShownAs } from '../shared/topics.js';

const userTopicsState: StateProvider = {
  fetchTypes: ['user_topic'],
  fetch: (ctx, user, options) => {
    const emptyName = emptyTopicReplacement(ctx, options.capabilities.empty_topic_name);
    return {
      user_topics: userTopicsInActiveChannels(ctx.db, user.id).map((row) => ({
        stream_id: row.stream_id,
        topic_name: topicShownAs(row.topic_name, emptyName),
        last_updated: row.last_updated,
        visibility_policy: row.visibility_policy,
      })),
    };
  },
};

/** Deprecated, but zulip-terminal fetches it; every entry has three elements. */
const mutedTopicsState: StateProvider = {
  fetchTypes: ['muted_topics'],
  fetch: (ctx, user, options) => ({
    muted_topics: mutedTopicsList(
      ctx.db,
      user.id,
      emptyTopicReplacement(ctx, options.capabilities.empty_topic_name),
    ),
  }),
};

/** user_topics and the deprecated muted_topics. */
export const topicStateProviders: StateProvider[] = [userTopicsState, mutedTopicsState];
