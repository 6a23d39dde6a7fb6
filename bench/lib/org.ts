/**
 * Builds a bench organization through the server's own operations (users
 * with their system groups) and its own queries (channels, subscriptions and
 * messages, which would take far too long one request at a time).
 */
import { insertMessage } from '../../server/db/queries/messages.js';
import { insertStream, insertSubscription } from '../../server/db/queries/streams.js';
import { userByEmailKey } from '../../server/db/queries/users.js';
import { createServer, type RunningServer } from '../../server/index.js';
import { createOrganization } from '../../server/realm/organization.js';
import { createUser } from '../../server/users/users.js';
import { progress } from './report.js';

export interface OrgShape {
  users: number;
  channels: number;
  /** Channels each user is subscribed to (round-robin, overlapping). */
  subscriptionsPerUser: number;
  messages: number;
}

/** A word in every fifth message, and one in about one message in 50,000. */
export const COMMON_WORD = 'release';
export const RARE_WORD = 'quokka';

const VOCABULARY =
  'the a deploy build review test branch merge fix bug issue standup meeting coffee lunch plan sprint ticket design api server client cache queue index search table chart report draft idea question answer thanks sure later today tomorrow week'.split(
    ' ',
  );

/** Deterministic content: the same database whatever the run. */
function contentOf(i: number): string {
  const words: string[] = [];
  let x = (i * 2654435761) >>> 0;
  for (let w = 0; w < 12; w++) {
    x = (x * 1103515245 + 12345) >>> 0;
    words.push(VOCABULARY[x % VOCABULARY.length]!);
  }
  // From the hash, not from i, so the word falls in every channel and topic.
  if (x % 5 === 0) words.push(COMMON_WORD);
  if (i % 50_000 === 7) words.push(RARE_WORD);
  return words.join(' ');
}

/**
 * A server on a new data directory with an organization of `users` people:
 * user0@bench.test (the owner, password bench-password) to user<N-1>, ids in
 * that order.
 */
export async function startBenchOrg(
  dataDir: string,
  users: number,
): Promise<{ server: RunningServer; ids: number[] }> {
  const server = await createServer({ dataDir, port: 0, rateLimit: false, logFile: false });
  const owner = await createOrganization(server.ctx, {
    name: 'Bench',
    emailDomain: 'bench.test',
    ownerEmail: 'user0@bench.test',
    ownerName: 'User 0',
    ownerPassword: 'bench-password',
  });
  const ids = [owner.user_id];
  for (let i = 1; i < users; i++) {
    const created = await createUser(server.ctx, null, {
      email: `user${i}@bench.test`,
      password: null,
      fullName: `User ${i}`,
    });
    ids.push(created.user_id);
    progress('users', i + 1, users);
  }
  return { server, ids };
}

export async function buildOrg(dataDir: string, shape: OrgShape): Promise<void> {
  const { server, ids } = await startBenchOrg(dataDir, shape.users);
  const { ctx } = server;
  const streamIds = ctx.transaction(() => {
    const created: number[] = [];
    for (let c = 0; c < shape.channels; c++) {
      created.push(
        insertStream(ctx.db, {
          name: `channel ${c}`,
          description: `Channel number ${c}`,
          rendered_description: `<p>Channel number ${c}</p>`,
          invite_only: c % 10 === 9,
          is_web_public: false,
          history_public_to_subscribers: true,
          date_created: 0,
          creator_id: null,
        }),
      );
    }
    ids.forEach((userId, u) => {
      for (let k = 0; k < Math.min(shape.subscriptionsPerUser, shape.channels); k++) {
        insertSubscription(ctx.db, created[(u * 7 + k) % shape.channels]!, userId, '#76ce90');
      }
    });
    return created;
  });
  const now = Math.floor(Date.now() / 1000) - shape.messages;
  for (let i = 0; i < shape.messages; i += 5000) {
    ctx.transaction(() => {
      for (let j = i; j < Math.min(shape.messages, i + 5000); j++) {
        const content = contentOf(j);
        insertMessage(ctx.db, {
          sender_id: ids[j % ids.length]!,
          stream_id: streamIds[j % streamIds.length]!,
          dm_group_id: null,
          topic: `topic ${(j * 7) % 100}`,
          content,
          rendered_content: `<p>${content}</p>`,
          date_sent: now + j,
          sending_client: 'bench',
          // Sparse enough that has:link must look far back.
          has_link: j % 1000 === 3,
        });
      }
    });
    progress('messages', Math.min(shape.messages, i + 5000), shape.messages);
  }
  ctx.db.pragma('optimize');
  await server.close();
}

/** `Authorization` header of a bench user (user0 is the owner). */
export function basicAuthOf(server: RunningServer, index: number): string {
  const user = userByEmailKey(server.ctx.db, `user${index}@bench.test`)!;
  return `Basic ${Buffer.from(`${user.delivery_email}:${user.api_key}`).toString('base64')}`;
}
