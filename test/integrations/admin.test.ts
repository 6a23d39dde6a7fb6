/**
 * What the admin page stands on: the catalog, the exact URL for a tool
 * (which works when a tool posts to it), the delivery log of each bot, who
 * may see them; and the catalog Zulip clients get from POST /register.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { basicAuth, startTestServer, type TestServer } from '../helpers/server.js';
import { type AdminClient, bearer, failure, trpcClient } from '../trpc/client.js';
import { payload, postedSince, watermark } from './webhooks.js';

const TOKEN = 'test-admin-token-integrations-01';

let t: TestServer;
let admin: AdminClient;
let botId: number;

beforeAll(async () => {
  t = await startTestServer({ adminToken: TOKEN });
  admin = trpcClient(t.url, bearer(TOKEN));
  const created = await admin.bots.create.mutate({
    fullName: 'Forge',
    shortName: 'forge',
    botType: 2,
  });
  botId = created.user_id;
  createChannel(t, { name: 'devel', subscribers: [t.accounts.owner.id, t.accounts.member.id] });
});
afterAll(() => t.close());

/** POST a payload (a string as is) to a URL exactly as the admin page gave it. */
async function postTo(url: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('the catalog', () => {
  it('lists every integration with the server’s external URL', async () => {
    const catalog = await admin.integrations.catalog.query();
    expect(catalog.baseUrl).toBe(`${t.url}/api/v1/external/`);
    expect(catalog.integrations.map((i) => i.name)).toEqual([
      'gitea',
      'forgejo',
      'gitlab',
      'github',
      'jenkins',
      'grafana',
      'alertmanager',
      'uptimekuma',
      'sentry',
      'slack_incoming',
      'json',
    ]);
    const github = catalog.integrations.find((i) => i.name === 'github')!;
    expect(github.displayName).toBe('GitHub');
    expect(github.eventTypes).toContain('push_commits');
    expect(github.urlOptions.map((o) => o.key)).toEqual([
      'branches',
      'ignore_private_repositories',
    ]);
  });

  it('is what POST /register gives as realm_incoming_webhook_bots', async () => {
    const answer = await t.as('member').post('/register', {
      fetch_event_types: ['realm_incoming_webhook_bots'],
    });
    expect(answer.status).toBe(200);
    const bots = answer.body.realm_incoming_webhook_bots as Record<string, unknown>[];
    expect(bots).toHaveLength(11);
    expect(bots.find((b) => b.name === 'alertmanager')).toEqual({
      name: 'alertmanager',
      display_name: 'Alertmanager',
      all_event_types: ['firing', 'resolved'],
      config_options: [],
      url_options: [
        {
          key: 'name',
          label: 'Label naming the topic (default: instance)',
          validator: 'check_string',
        },
        {
          key: 'desc',
          label: 'Label or annotation describing the alert (default: alertname)',
          validator: 'check_string',
        },
      ],
    });
    expect(bots.find((b) => b.name === 'json')?.all_event_types).toBeNull();
  });
});

describe('the URL for a tool', () => {
  it('carries the key, channel, topic, filters and options, and works as given', async () => {
    const { url } = await admin.integrations.url.query({
      botId,
      integration: 'gitea',
      stream: 'devel',
      topic: 'Code & review',
      onlyEvents: ['push', 'pull_*'],
      options: { branches: 'main, release' },
    });
    const key = (await admin.bots.list.query()).find((b) => b.user_id === botId)!.api_key;
    expect(url).toBe(
      `${t.url}/api/v1/external/gitea?api_key=${key}&stream=devel&topic=Code%20%26%20review&only_events=%5B%22push%22%2C%22pull_*%22%5D&branches=main%2C%20release`,
    );
    const since = await watermark(t);
    const answer = await postTo(url, { 'X-Gitea-Event': 'push' }, payload('gitea', 'push'));
    expect(answer).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    const posted = await postedSince(t, since);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ channel: 'devel', topic: 'Code & review' });
  });

  it('without a channel goes to the owner’s direct messages; a boolean option is true or absent', async () => {
    const { url } = await admin.integrations.url.query({
      botId,
      integration: 'github',
      options: { ignore_private_repositories: true, branches: '  ' },
    });
    expect(url).toMatch(
      /\/api\/v1\/external\/github\?api_key=[A-Za-z0-9]+&ignore_private_repositories=true$/,
    );
  });

  it('is refused to a member who does not own the bot, and for an unknown integration', async () => {
    const member = t.accounts.member;
    const asMember = trpcClient(t.url, basicAuth(member.email, member.apiKey));
    const refused = await failure(asMember.integrations.url.query({ botId, integration: 'gitea' }));
    expect(refused.zulip).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
    const unknown = await failure(admin.integrations.url.query({ botId, integration: 'nope' }));
    expect(unknown.httpStatus).toBe(404);
  });
});

describe('the delivery log', () => {
  it('keeps what became of each delivery, newest first', async () => {
    const { url } = await admin.integrations.url.query({
      botId,
      integration: 'gitea',
      stream: 'devel',
    });
    await postTo(url, { 'X-Gitea-Event': 'wiki' }, { action: 'edited' });
    await postTo(url, { 'X-Gitea-Event': 'push' }, { not: 'gitea' });
    const log = await admin.integrations.deliveries.query({ botId });
    expect(log.slice(0, 3)).toEqual([
      expect.objectContaining({
        integration: 'gitea',
        outcome: 'error',
        status: 400,
        detail: 'Unable to parse request: Did Gitea generate this event?',
      }),
      expect.objectContaining({
        outcome: 'unsupported',
        status: 200,
        eventType: 'wiki',
        detail: "The 'wiki' event isn't currently supported by the Gitea webhook; ignoring",
      }),
      expect.objectContaining({
        outcome: 'accepted',
        status: 200,
        eventType: 'push',
        detail: 'Posted to #devel > Code & review.',
        messageIds: [expect.any(Number)],
      }),
    ]);
    expect(log[0]!.at).toBeGreaterThan(Date.now() - 60_000);
  });

  it('keeps the last 25', async () => {
    const { url } = await admin.integrations.url.query({
      botId,
      integration: 'json',
      stream: 'devel',
    });
    for (let i = 0; i < 30; i++) await postTo(url, {}, '{');
    const log = await admin.integrations.deliveries.query({ botId });
    expect(log).toHaveLength(25);
    expect(log.every((d) => d.detail === 'Malformed JSON')).toBe(true);
  });

  it('is the bot administrators’ only', async () => {
    const guest = t.accounts.guest;
    const asGuest = trpcClient(t.url, basicAuth(guest.email, guest.apiKey));
    const refused = await failure(asGuest.integrations.deliveries.query({ botId }));
    expect(refused.httpStatus).toBeLessThan(500);
    expect(refused.zulip?.msg).toBe('Insufficient permission');
  });
});
