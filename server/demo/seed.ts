import type { AppContext } from '../core/context.js';
import { dmGroupFor } from '../db/queries/dm-groups.js';
import { insertMessage } from '../db/queries/messages.js';
import { insertStream, insertSubscription } from '../db/queries/streams.js';
import { setUserPasswordHash, userByEmailKey, userById } from '../db/queries/users.js';
import { renderContent } from '../markdown/index.js';
import { type RecentPresence, recordRecentPresence } from '../presence/index.js';
import { hashPassword } from '../shared/credentials.js';
import { Role } from '../shared/roles.js';
import { createBot, createUser } from '../users/index.js';

/**
 * Every demo account's password (the owner's too), printed by the banner:
 * the mobile app has no dev login, so `fetch_api_key` is how it signs in.
 */
export const DEMO_PASSWORD = 'hearth-demo';

/**
 * `active`/`connected`: seconds before each start of their last presence
 * reports, so clients show some people online, some idle, some away.
 */
const people = [
  { email: 'iago@hearth.local', name: 'Iago', role: Role.administrator, active: 0, connected: 0 },
  {
    email: 'desdemona@hearth.local',
    name: 'Desdemona',
    role: Role.moderator,
    active: 40,
    connected: 40,
  },
  {
    email: 'hamlet@hearth.local',
    name: 'King Hamlet',
    role: Role.member,
    active: 20,
    connected: 20,
  },
  {
    email: 'cordelia@hearth.local',
    name: "Cordelia, Lear's daughter",
    role: Role.member,
    active: 900,
    connected: 30,
  },
  {
    email: 'othello@hearth.local',
    name: 'Othello, the Moor of Venice',
    role: Role.member,
    active: 3 * 3600,
    connected: 3 * 3600,
  },
  {
    email: 'prospero@hearth.local',
    name: 'Prospero from The Tempest',
    role: Role.member,
    active: 10,
    connected: 10,
  },
  {
    email: 'polonius@hearth.local',
    name: 'Polonius',
    role: Role.guest,
    active: 26 * 3600,
    connected: 26 * 3600,
  },
];

const channels = [
  { name: 'general', description: 'Everyone is here.', private: false },
  { name: 'Denmark', description: 'A city in Scandinavia.', private: false },
  { name: 'Verona', description: 'Fair Verona, where we lay our scene.', private: false },
  { name: 'Scotland', description: 'Where the witches meet.', private: false },
  { name: 'core team', description: 'Private planning.', private: true },
  { name: 'secret plots', description: 'Invite only.', private: true },
];

const topics = ['greetings', 'release planning', 'lunch', 'bugs', 'castle repairs'];
const lines = [
  'Hello everyone!',
  'Has anyone seen the **release notes**?',
  'I think we should ship on *Friday*.',
  'Here is a link: https://zulip.com',
  'Use `npm test` before you push.',
  'To be, or not to be: that is the question.',
  'The lunch place on the corner is open again :tada:',
  'Found a bug in the login flow, looking into it.',
  '> Quoting the plan: we meet at noon.',
  'Sounds good to me.',
];
const colors = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55'];

/**
 * The single-user sandbox: people of every role, bots of types 1, 2 and 4,
 * public and private channels with subscriptions, and a few hundred messages.
 * Deterministic, so screenshots and examples stay stable.
 */
export async function seedDemo(ctx: AppContext, ownerId: number): Promise<void> {
  const ids: number[] = [ownerId];
  for (const person of people) {
    // Passwords are set afterwards, all hashed at once (refreshDemo).
    const { user_id } = await createUser(ctx, null, {
      email: person.email,
      password: null,
      fullName: person.name,
      role: person.role,
    });
    ids.push(user_id);
  }
  const owner = userById(ctx.db, ownerId)!;
  const hamlet = userById(ctx.db, ids[3]!)!;
  createBot(ctx, owner, { fullName: 'Notification Bot', shortName: 'notification', botType: 1 });
  createBot(ctx, hamlet, { fullName: 'Webhook Bot', shortName: 'webhook', botType: 2 });
  createBot(ctx, owner, {
    fullName: 'Helloworld Bot',
    shortName: 'helloworld',
    botType: 4,
    serviceName: 'helloworld',
  });

  const start = Math.floor(ctx.now() / 1000) - 7 * 24 * 3600;
  ctx.transaction(() => {
    const streamIds: number[] = [];
    channels.forEach((channel, i) => {
      const id = insertStream(ctx.db, {
        name: channel.name,
        description: channel.description,
        rendered_description: `<p>${channel.description}</p>`,
        invite_only: channel.private,
        is_web_public: false,
        history_public_to_subscribers: true,
        date_created: start,
        creator_id: ownerId,
      });
      streamIds.push(id);
      // Private channels have a few members; the guest only sees "general".
      const members = channel.private
        ? ids.slice(0, 3)
        : ids.filter((_, n) => n < ids.length - 1 || i === 0);
      for (const userId of members)
        insertSubscription(ctx.db, id, userId, colors[i % colors.length]!);
    });

    let n = 0;
    for (let round = 0; round < 50; round++) {
      for (const [i, streamId] of streamIds.entries()) {
        const content = lines[n % lines.length]!;
        const sender = channels[i]!.private ? ids[n % 3]! : ids[n % (ids.length - 1)]!;
        insertMessage(ctx.db, {
          sender_id: sender,
          stream_id: streamId,
          dm_group_id: null,
          topic: topics[(n + round) % topics.length]!,
          content,
          rendered_content: renderContent(ctx, content),
          date_sent: start + n * 600,
          sending_client: 'populate_db',
        });
        n++;
      }
      if (round % 2 === 0) {
        const pair = [ids[round % ids.length]!, ids[(round + 3) % ids.length]!];
        const group = round % 6 === 0 ? [...pair, ids[(round + 5) % ids.length]!] : pair;
        const content = lines[(n * 7) % lines.length]!;
        insertMessage(ctx.db, {
          sender_id: group[0]!,
          stream_id: null,
          dm_group_id: dmGroupFor(ctx.db, group),
          topic: '',
          content,
          rendered_content: renderContent(ctx, content),
          date_sent: start + n * 600,
          sending_client: 'populate_db',
        });
        n++;
      }
    }
  });
}

/**
 * At each start of a demo organization: every demo person has the demo
 * password and recent presence. The password is public and the same for
 * everyone, so one hash (one salt) serves them all: a salt per account
 * protects secrets from a shared precomputation, and this one is printed
 * anyway, while each scrypt hash costs ~0.1 s of a 2-core machine's start. Returns how many demo people exist (0: the
 * organization was not seeded as a demo).
 */
export async function refreshDemo(ctx: AppContext): Promise<number> {
  const found = people.flatMap((person) => {
    const user = userByEmailKey(ctx.db, person.email);
    return user?.is_active && !user.is_bot ? [{ person, user }] : [];
  });
  const missing = found.filter(({ user }) => !user.password_hash);
  if (missing.length > 0) {
    const hash = await hashPassword(DEMO_PASSWORD);
    ctx.transaction(() => {
      for (const { user } of missing) setUserPasswordHash(ctx.db, user.id, hash);
    });
  }
  recordRecentPresence(
    ctx,
    found.map(
      ({ person, user }): RecentPresence => ({
        userId: user.id,
        activeSecondsAgo: person.active,
        connectedSecondsAgo: person.connected,
      }),
    ),
  );
  return found.length;
}
