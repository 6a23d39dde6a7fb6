/**
 * Slack-compatible incoming webhooks through the real door: JSON bodies and
 * the `payload=` form, text, legacy attachments and Block Kit, Slack's
 * markup turned into Zulip's, the topic from `topic=` or Slack's channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { deliver, payload, postedSince, watermark, webhookSetup } from './webhooks.js';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  key = webhookSetup(t).bot.apiKey;
});
afterAll(() => t.close());

async function hook(delivery: Omit<Parameters<typeof deliver>[2], 'key'>) {
  const since = await watermark(t);
  const answer = await deliver(t, 'slack_incoming', {
    key,
    ...delivery,
    query: { stream: 'devel', ...delivery.query },
  });
  return { answer, posted: await postedSince(t, since) };
}

describe('Slack-compatible incoming webhooks', () => {
  it('text, as JSON, in the topic the URL names', async () => {
    const { answer, posted } = await hook({
      query: { topic: 'Deploys' },
      body: {
        text: 'Deployed <https://deploy.lan.example/runs/88|run 88>: *all* _green_ ~no~ &lt;3',
      },
    });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    expect(posted[0]).toMatchObject({
      topic: 'Deploys',
      client: 'ZulipSlackWebhook',
      content: 'Deployed [run 88](https://deploy.lan.example/runs/88): **all** *green* ~~no~~ <3',
    });
  });

  it('the payload= form, which most tools send; Slack’s channel names the topic', async () => {
    const { posted } = await hook({
      contentType: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({
        payload: JSON.stringify({
          channel: '#backups',
          text: 'Backup done',
          icon_emoji: ':floppy_disk:',
        }),
      }).toString(),
    });
    expect(posted[0]).toMatchObject({ topic: 'backups', content: ':floppy_disk: Backup done' });
  });

  it('legacy attachments', async () => {
    const { posted } = await hook({ body: payload('slack_incoming', 'attachments') });
    expect(posted[0]).toMatchObject({
      topic: 'deploys',
      content: [
        '## [harbour-api 2.1.0](https://deploy.lan.example/apps/harbour-api)',
        '',
        'Deploy **finished** for [run 88](https://deploy.lan.example/runs/88)',
        '',
        'All *three* hosts updated & healthy.',
        '',
        '**Environment**: production',
        '**Duration**: 2m 10s',
        '',
        'deploy-bot',
        '',
        '<time:1741080000>',
      ].join('\n'),
    });
  });

  it('Block Kit; broadcasts stay words, never wildcard mentions', async () => {
    const { posted } = await hook({ body: payload('slack_incoming', 'blocks') });
    // No channel and no topic=: the empty topic, shown by its display name.
    expect(posted[0]!.topic).toBe('general chat');
    expect(posted[0]!.content).toBe(
      [
        '## Nightly backup',
        '',
        '**3 of 4** volumes backed up. @channel check [the NAS](https://nas.lan.example/backups).',
        '',
        '| | |',
        '|-|-|',
        '| **Volumes** home, mail, photos | **Failed** videos |',
        '',
        '----',
        '',
        'Finished at 03:12',
      ].join('\n'),
    );
  });

  it('Zulip mention syntax in a tool’s text is silenced', async () => {
    const { posted } = await hook({ body: { text: 'ping @**all** and @_**Mel Member**' } });
    expect(posted[0]!.content).toBe('ping @_**all** and @_**Mel Member**');
  });

  it('an empty message: success, nothing posted', async () => {
    const { answer, posted } = await hook({ body: { text: '', attachments: [] } });
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    expect(posted).toEqual([]);
  });
});
