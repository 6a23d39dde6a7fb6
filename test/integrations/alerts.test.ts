/**
 * Monitoring and alerting through the real door: Grafana (unified and
 * legacy alerting), Prometheus Alertmanager (topics by label, as Zulip
 * groups them), Uptime Kuma and Sentry. Payloads written from each tool's
 * documented webhook format.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { deliver, payload, postedSince, watermark, webhookSetup } from './webhooks.js';

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  key = webhookSetup(t, 'alerts').bot.apiKey;
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: payloads are edited freely
const fixture = (tool: string, name: string): any => structuredClone(payload(tool, name));

async function hook(
  integration: string,
  body: unknown,
  options: { query?: Record<string, string | string[]>; headers?: Record<string, string> } = {},
) {
  const since = await watermark(t);
  const answer = await deliver(t, integration, {
    key,
    query: { stream: 'alerts', ...options.query },
    headers: options.headers,
    body,
  });
  return { answer, posted: await postedSince(t, since) };
}

describe('Grafana', () => {
  it('one message per alert, in a topic per alert name', async () => {
    const { answer, posted } = await hook('grafana', fixture('grafana', 'firing'));
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    expect(posted.map((m) => m.topic)).toEqual(['DiskAlmostFull', 'HighLoad']);
    expect(posted[0]!.content).toBe(
      [
        '🚨 **Firing** **DiskAlmostFull**: Disk 92% full on nas-01',
        'Since <time:1741079564>.',
        'The backup volume fills up in about 3 days.',
        'Labels: `instance=nas-01` `severity=warning`',
        'Values: `A=92.4` `C=1`',
        '[Source](http://grafana.lan.example:3000/alerting/grafana/aehxq3/view?orgId=1) · [Dashboard](http://grafana.lan.example:3000/d/nas?orgId=1) · [Panel](http://grafana.lan.example:3000/d/nas?orgId=1&viewPanel=4) · [Silence](http://grafana.lan.example:3000/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DDiskAlmostFull)',
      ].join('\n'),
    );
    expect(posted[1]!.content).toBe(
      [
        '✅ **Resolved** **HighLoad**: Load back to normal',
        'Resolved <time:1741079400>.',
        'Labels: `instance=build-02`',
        '[Source](http://grafana.lan.example:3000/alerting/grafana/bq9w1z/view?orgId=1)',
      ].join('\n'),
    );
  });

  it('only_events=["resolved"] posts only the resolved alert', async () => {
    const { posted } = await hook('grafana', fixture('grafana', 'firing'), {
      query: { only_events: ['resolved'] },
    });
    expect(posted.map((m) => m.topic)).toEqual(['HighLoad']);
  });

  it('legacy alerting (Grafana 7): the rule, its message and matches, topic from the title', async () => {
    const { posted } = await hook('grafana', fixture('grafana', 'legacy'));
    expect(posted[0]).toMatchObject({
      topic: '[Alerting] Test notification',
      content: [
        '🚨 **Alerting** [Test notification](https://grafana.lan.example/)',
        '```quote',
        'Someone is testing the alert notification within Grafana.',
        '```',
        '* `High value`: 100',
        '* `Higher Value`: 200',
        '[Graph](https://grafana.lan.example/public/img/attention.png)',
      ].join('\n'),
    });
  });
});

describe('Alertmanager', () => {
  const GRAPH_UP = 'http://prometheus.lan.example:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=0';

  it('alerts grouped by instance, one message per status, graph tab links', async () => {
    const { answer, posted } = await hook('alertmanager', fixture('alertmanager', 'alert'));
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    expect(posted).toHaveLength(2);
    expect(posted[0]).toMatchObject({
      topic: 'printer-2:9100',
      content: [
        '🚨 **Firing**',
        `* HostDown ([graph](${GRAPH_UP}))`,
        '* DiskPressure ([graph](http://prometheus.lan.example:9090/graph?g0.expr=node_filesystem_avail_bytes&g0.tab=0))',
      ].join('\n'),
    });
    expect(posted[1]).toMatchObject({
      topic: 'nas-01:9100',
      content: `✅ **Resolved**: HostDown ([graph](${GRAPH_UP}))`,
    });
  });

  it('name and desc choose the labels (or annotations) for topic and description', async () => {
    const { posted } = await hook('alertmanager', fixture('alertmanager', 'alert'), {
      query: { name: 'alertname', desc: 'summary' },
    });
    expect(posted.map((m) => [m.topic, m.content.split('\n')[0]])).toEqual([
      ['HostDown', `🚨 **Firing**: Host unreachable ([graph](${GRAPH_UP}))`],
      ['HostDown', `✅ **Resolved**: Host unreachable ([graph](${GRAPH_UP}))`],
      [
        'DiskPressure',
        '🚨 **Firing**: Spool disk nearly full ([graph](http://prometheus.lan.example:9090/graph?g0.expr=node_filesystem_avail_bytes&g0.tab=0))',
      ],
    ]);
  });

  it('no alerts: nothing posted', async () => {
    const empty = fixture('alertmanager', 'alert');
    empty.alerts = [];
    const { answer, posted } = await hook('alertmanager', empty);
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    expect(posted).toEqual([]);
  });
});

describe('Uptime Kuma', () => {
  it('a monitor down, in its topic', async () => {
    const { posted } = await hook('uptimekuma', fixture('uptimekuma', 'down'));
    expect(posted[0]).toMatchObject({
      topic: 'Booking site',
      client: 'ZulipUptimeKumaWebhook',
      content:
        '🔴 **Booking site** is **down**: Request failed with status code 503\nhttps://booking.lan.example/health',
    });
  });

  it('back up, with its response time', async () => {
    const up = fixture('uptimekuma', 'down');
    up.heartbeat.status = 1;
    up.heartbeat.msg = '200 - OK';
    up.heartbeat.ping = 41.6;
    expect((await hook('uptimekuma', up)).posted[0]!.content).toBe(
      '🟢 **Booking site** is **up**: 200 - OK (42 ms)\nhttps://booking.lan.example/health',
    );
  });

  it('the notification’s Test button', async () => {
    const { posted } = await hook('uptimekuma', fixture('uptimekuma', 'test'));
    expect(posted[0]).toMatchObject({
      topic: 'Uptime Kuma',
      content: 'Uptime Kuma can post here: Hearth Testing',
    });
  });

  it('exclude_events=["up"] keeps only the bad news', async () => {
    const up = fixture('uptimekuma', 'down');
    up.heartbeat.status = 1;
    const excluded = await hook('uptimekuma', up, { query: { exclude_events: ['up'] } });
    expect(excluded.answer.body).toEqual({ result: 'success', msg: '' });
    expect(excluded.posted).toEqual([]);
    const down = await hook('uptimekuma', fixture('uptimekuma', 'down'), {
      query: { exclude_events: ['up'] },
    });
    expect(down.posted).toHaveLength(1);
  });
});

describe('Sentry', () => {
  const ISSUE = 'https://sentry.lan.example/organizations/harbour/issues/1170/';

  it('an alert rule’s event, in a topic per issue', async () => {
    const { posted } = await hook('sentry', fixture('sentry', 'event_alert'), {
      headers: { 'Sentry-Hook-Resource': 'event_alert' },
    });
    expect(posted[0]).toMatchObject({
      topic: 'ZeroDivisionError: division by zero',
      content: [
        `🐞 **error**: [ZeroDivisionError: division by zero](${ISSUE}events/6f3e1d2c4b5a49788796a5b4c3d2e1f0/)`,
        '`app.tides in average_depth`',
        'environment `production`, alert rule **Errors in production**',
      ].join('\n'),
    });
  });

  it('an issue resolved, then created', async () => {
    const headers = { 'Sentry-Hook-Resource': 'issue' };
    const resolved = await hook('sentry', fixture('sentry', 'issue'), { headers });
    expect(resolved.posted[0]).toMatchObject({
      topic: 'ZeroDivisionError: division by zero',
      content: `**Amara Okafor** resolved [HARBOUR-API-3F](${ISSUE}).`,
    });
    const created = fixture('sentry', 'issue');
    created.action = 'created';
    expect((await hook('sentry', created, { headers })).posted[0]!.content).toBe(
      `🐞 **error**: new issue [HARBOUR-API-3F](${ISSUE}) in **harbour-api**\n\`app.tides in average_depth\``,
    );
  });

  it('a resource it does not post: UNSUPPORTED_WEBHOOK_EVENT_TYPE; the installation: nothing', async () => {
    const { answer, posted } = await hook(
      'sentry',
      { action: 'created', data: {} },
      {
        headers: { 'Sentry-Hook-Resource': 'comment' },
      },
    );
    expect(answer).toEqual({
      status: 200,
      body: {
        result: 'error',
        msg: "The 'comment' event isn't currently supported by the Sentry webhook; ignoring",
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        webhook_name: 'Sentry',
        event_type: 'comment',
      },
    });
    expect(posted).toEqual([]);
    const installed = await hook(
      'sentry',
      { action: 'created', data: {} },
      {
        headers: { 'Sentry-Hook-Resource': 'installation' },
      },
    );
    expect(installed.answer.body).toEqual({ result: 'success', msg: '' });
    expect(installed.posted).toEqual([]);
  });

  it('the legacy WebHooks plugin (no header)', async () => {
    const legacy = {
      id: '27379932',
      project: 'harbour-api',
      project_name: 'Harbour API',
      culprit: 'app.tides in average_depth',
      level: 'error',
      url: ISSUE,
      checksum: 'c4a4d06bc314205bb3b6bdb612dde7f1',
      logger: 'root',
      message: 'division by zero',
      triggering_rules: [],
      event: { id: '6f3e1d2c', level: 'error' },
    };
    const { posted } = await hook('sentry', legacy);
    expect(posted[0]).toMatchObject({
      topic: 'Harbour API',
      content: `🐞 **error** in **Harbour API**: [division by zero](${ISSUE})\n\`app.tides in average_depth\``,
    });
  });
});
