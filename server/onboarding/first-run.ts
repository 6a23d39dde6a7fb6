import {
  type ChannelCreationOptions,
  insertChannel,
  plainChannelOptions,
  prepareChannelCreation,
} from '../channels/index.js';
import type { AppContext } from '../core/context.js';
import { streamById } from '../db/queries/streams.js';
import { userById } from '../db/queries/users.js';
import { sendInternalChannelMessage } from '../messages/index.js';
import { setRealmSetting } from '../shared/realm.js';
import { addSubscriptions } from '../subscriptions/index.js';
import { ensureSystemBot } from '../users/index.js';
import { sendWelcome } from './welcome.js';

/** The channels a new organization starts with, as Zulip's do_create_realm makes its own. */
export const FIRST_RUN_CHANNELS = {
  general: { name: 'general', description: 'For conversations that concern the whole team' },
  sandbox: { name: 'sandbox', description: 'Try things out here :test_tube:' },
} as const;

const GENERAL_TOPIC = 'welcome';
const GENERAL_MESSAGE = [
  'Welcome to #**general**, the channel for conversations that concern the whole team. ' +
    'Everyone who joins is subscribed to it.',
  '',
  'Every message in a channel belongs to a **topic**: this one is in “welcome”. ' +
    'Give each new subject its own topic, and replies stay together, ' +
    'so people can catch up on one conversation without reading all the others.',
].join('\n');

const SANDBOX_TOPIC = 'experiments';
const SANDBOX_MESSAGE = [
  'Use #**sandbox** to try things out. Messages are written in Markdown:',
  '',
  '* **bold**, *italic*, `code` and [links](https://zulip.com/help/format-your-message-using-markdown)',
  '* emoji such as :tada:, and mentions such as @**Welcome Bot**',
  '* `/poll Lunch?` followed by options, one per line, makes a poll',
  '',
  'Edit or delete your own messages from the menu next to each one.',
].join('\n');

const publicDefaultChannel: ChannelCreationOptions = {
  ...plainChannelOptions,
  isDefaultStream: true,
};

/**
 * What a new organization (the command line's first start, the desktop's
 * first-run wizard) starts with, so no client opens on nothing: a Welcome
 * Bot, the default channels #general and #sandbox with the owner
 * subscribed, a first message in each, and the Welcome Bot's message to the
 * owner. New announcements go to #general, as in Zulip. The demo seeds its
 * own content instead.
 */
export function setUpFirstRun(ctx: AppContext, ownerId: number): void {
  ctx.transaction((tx) => {
    const owner = userById(ctx.db, ownerId)!;
    const bot = ensureSystemBot(ctx, tx, 'welcome');
    const blueprint = prepareChannelCreation(ctx, owner, publicDefaultChannel);
    const [general, sandbox] = [FIRST_RUN_CHANNELS.general, FIRST_RUN_CHANNELS.sandbox].map(
      (c) => streamById(ctx.db, insertChannel(ctx, tx, owner, c.name, c.description, blueprint))!,
    ) as [NonNullable<ReturnType<typeof streamById>>, NonNullable<ReturnType<typeof streamById>>];
    setRealmSetting(ctx, tx, 'new_stream_announcements_stream_id', general.id);
    addSubscriptions(ctx, tx, [general, sandbox], [owner]);
    sendInternalChannelMessage(ctx, tx, bot, sandbox, SANDBOX_TOPIC, SANDBOX_MESSAGE);
    sendInternalChannelMessage(ctx, tx, bot, general, GENERAL_TOPIC, GENERAL_MESSAGE);
    sendWelcome(ctx, tx, owner, [general, sandbox]);
  });
}
