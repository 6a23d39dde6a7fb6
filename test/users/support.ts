/**
 * Shared by the account-administration tests: bots of every type made the
 * way a client makes them, a deactivated account, and the callers of the
 * role matrix.
 */
import { expect } from 'vitest';
import { quickMember } from '../helpers/fixtures.js';
import type { Account, ApiResponse, FixtureName, TestServer } from '../helpers/server.js';

export const NOT_GUEST = 'Not allowed for guest users';
export const NOT_BOT = 'This endpoint does not accept bot requests.';
export const INSUFFICIENT = 'Insufficient permission';
export const ADMIN_REQUIRED = 'Must be an organization administrator';
export const OWNER_REQUIRED = 'Must be an organization owner';

/** What POST /bots needs besides the names, by bot type. */
const TYPE_PARAMS: Record<number, Record<string, unknown>> = {
  1: {},
  2: {},
  3: { payload_url: JSON.stringify('https://hooks.example.com/start') },
  4: { service_name: 'helloworld', config_data: JSON.stringify({ greeting: 'hi' }) },
};

let botCounter = 0;

/** A bot of `type` created (and so owned) by `owner` through POST /bots. */
export async function makeBot(
  t: TestServer,
  owner: FixtureName | Account,
  fullName: string,
  type = 1,
): Promise<Account> {
  botCounter++;
  const shortName = `adm${botCounter}`;
  const res = await t.as(owner).post('/bots', {
    full_name: fullName,
    short_name: shortName,
    bot_type: type,
    ...TYPE_PARAMS[type],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return {
    id: res.body.user_id,
    email: `${shortName}-bot@test.hearth`,
    apiKey: res.body.api_key,
    password: null,
  };
}

/** A member who has been deactivated (their credentials answer USER_DEACTIVATED). */
export async function deactivatedMember(t: TestServer, name: string): Promise<Account> {
  const account = await quickMember(t, name);
  const res = await t.as('owner').delete(`/users/${account.id}`);
  expect(res.status).toBe(200);
  return account;
}

/** The human callers of a role matrix, plus a bot of each type. */
export interface Callers {
  humans: FixtureName[];
  /** Generic, outgoing-webhook and embedded bots: they reach the endpoints' own rules. */
  bots: Account[];
  /** An incoming-webhook bot: refused by every endpoint but POST /messages, before its rules. */
  incomingWebhook: Account;
  deactivated: Account;
}

export async function roleMatrixCallers(t: TestServer): Promise<Callers> {
  const bots = [t.accounts.bot];
  for (const type of [3, 4]) bots.push(await makeBot(t, 'admin', `Caller Type ${type}`, type));
  return {
    humans: ['owner', 'admin', 'moderator', 'member', 'guest'],
    bots,
    incomingWebhook: await makeBot(t, 'admin', 'Caller Type 2', 2),
    deactivated: await deactivatedMember(t, 'Dee Activated'),
  };
}

export function expectIncomingWebhookRefused(res: ApiResponse): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 401,
    body: {
      result: 'error',
      msg: 'This API is not available to incoming webhook bots.',
      code: 'UNAUTHORIZED',
    },
  });
}

export function expectUserDeactivated(res: ApiResponse): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 401,
    body: { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' },
  });
}
