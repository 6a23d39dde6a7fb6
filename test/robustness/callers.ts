/**
 * Every kind of caller the robustness tests send requests as: each role, each
 * bot type, and callers whose credentials cannot work. Credentials are read
 * from the database at each use, so a request that regenerates a key does not
 * strand the rest of the run.
 */
import { userById } from '../../server/db/queries/users.js';
import { BotType } from '../../server/shared/roles.js';
import { createBot } from '../../server/users/index.js';
import { basicAuth, type TestServer } from '../helpers/server.js';

export const humanCallers = ['owner', 'admin', 'moderator', 'member', 'guest'] as const;
export const botCallers = ['generic_bot', 'incoming_bot', 'outgoing_bot', 'embedded_bot'] as const;

export type CallerName =
  | 'anonymous'
  | 'wrong_key'
  | (typeof humanCallers)[number]
  | (typeof botCallers)[number];

export const allCallers: readonly CallerName[] = [
  'anonymous',
  'wrong_key',
  ...humanCallers,
  ...botCallers,
];

export interface Callers {
  ids: Record<Exclude<CallerName, 'anonymous' | 'wrong_key'>, number>;
  /** The Authorization header for this caller now (undefined: none sent). */
  authorization(who: CallerName): string | undefined;
}

/** Adds one bot of each type (owned by the member) to a test server's fixtures. */
export function setUpCallers(t: TestServer): Callers {
  const { ctx } = t.server;
  const member = userById(ctx.db, t.accounts.member.id)!;
  const bot = (shortName: string, botType: number, extra: object = {}) =>
    createBot(ctx, member, { fullName: `Robust ${shortName}`, shortName, botType, ...extra })
      .user_id;
  const ids = {
    owner: t.accounts.owner.id,
    admin: t.accounts.admin.id,
    moderator: t.accounts.moderator.id,
    member: t.accounts.member.id,
    guest: t.accounts.guest.id,
    generic_bot: t.accounts.bot.id,
    incoming_bot: bot('incoming', BotType.incomingWebhook),
    // Port 9 (discard) on loopback: nothing answers, so calls fail fast.
    outgoing_bot: bot('outgoing', BotType.outgoingWebhook, {
      payloadUrl: 'http://127.0.0.1:9/hook',
    }),
    embedded_bot: bot('embedded', BotType.embedded, { serviceName: 'helloworld' }),
  };
  return {
    ids,
    authorization(who) {
      if (who === 'anonymous') return undefined;
      if (who === 'wrong_key') return basicAuth(t.accounts.member.email, 'x'.repeat(32));
      const row = userById(ctx.db, ids[who])!;
      return basicAuth(row.delivery_email, row.api_key);
    },
  };
}
