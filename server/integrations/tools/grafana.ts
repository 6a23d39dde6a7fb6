/**
 * Grafana's webhook contact point: Grafana Alerting's payload (8.0 and
 * later: `alerts`, each firing or resolved; one message per alert, in a
 * topic per alert name, as Zulip does) and legacy alerting's (7.x: `state`,
 * `ruleName`, `evalMatches`).
 */
import { z } from 'zod';
import { codeSpan, markdownLink, plainText } from '../../markdown/index.js';
import { readPayload } from '../toolkit/payload.js';
import { moment, strong, withQuote } from '../toolkit/text.js';
import {
  type Integration,
  post,
  type WebhookInput,
  type WebhookMessage,
  type WebhookReading,
} from '../types.js';

const TOOL = 'Grafana';

const text = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const alert = z.object({
  status: z.string(),
  labels: z.record(z.string(), text).default({}),
  annotations: z.record(z.string(), text).nullish(),
  startsAt: z.string().nullish(),
  endsAt: z.string().nullish(),
  values: z.record(z.string(), z.unknown()).nullish(),
  valueString: z.string().nullish(),
  generatorURL: z.string().nullish(),
  silenceURL: z.string().nullish(),
  dashboardURL: z.string().nullish(),
  panelURL: z.string().nullish(),
  fingerprint: z.string().nullish(),
});

const unifiedPayload = z.object({ alerts: z.array(alert) });

const legacyPayload = z.object({
  title: z.string(),
  ruleName: z.string(),
  ruleUrl: z.string().nullish(),
  state: z.string(),
  message: z.string().nullish(),
  imageUrl: z.string().nullish(),
  evalMatches: z.array(z.object({ metric: z.string(), value: z.number().nullish() })).nullish(),
});

/** Grafana writes "0001-01-01T00:00:00Z" for an alert that has not ended. */
const NOT_ENDED = /^0001-/;

const STATES: Record<string, string> = {
  firing: '🚨 **Firing**',
  resolved: '✅ **Resolved**',
  alerting: '🚨 **Alerting**',
  ok: '✅ **OK**',
  pending: '⏳ **Pending**',
  no_data: '❔ **No data**',
  paused: '⏸️ **Paused**',
};

function alertMessage(a: z.infer<typeof alert>): WebhookMessage {
  const name = String(a.labels.alertname ?? a.fingerprint ?? 'Alert');
  const annotations = a.annotations ?? {};
  const summary = annotations.summary ?? annotations.description;
  const lines = [
    `${STATES[a.status] ?? strong(a.status)} ${strong(name)}${summary ? `: ${plainText(String(summary))}` : ''}`,
  ];
  if (a.status === 'resolved' && a.endsAt && !NOT_ENDED.test(a.endsAt))
    lines.push(`Resolved ${moment(a.endsAt)}.`);
  else if (a.startsAt) lines.push(`Since ${moment(a.startsAt)}.`);
  if (annotations.description && annotations.summary)
    lines.push(plainText(String(annotations.description)));
  const labels = Object.entries(a.labels)
    .filter(([key]) => key !== 'alertname')
    .map(([key, value]) => `${key}=${String(value)}`);
  if (labels.length > 0) lines.push(`Labels: ${labels.map(codeSpan).join(' ')}`);
  const values = a.values ? Object.entries(a.values).map(([k, v]) => `${k}=${String(v)}`) : [];
  if (values.length > 0) lines.push(`Values: ${values.map(codeSpan).join(' ')}`);
  const links = [
    markdownLink('Source', a.generatorURL),
    markdownLink('Dashboard', a.dashboardURL),
    markdownLink('Panel', a.panelURL),
    markdownLink('Silence', a.silenceURL),
  ].filter((l) => l.startsWith('['));
  if (links.length > 0) lines.push(links.join(' · '));
  return { topic: name, content: lines.join('\n'), eventType: a.status };
}

function readGrafana(input: WebhookInput): WebhookReading {
  const payload = input.payload;
  if (typeof payload === 'object' && payload !== null && 'alerts' in payload) {
    const p = readPayload(TOOL, unifiedPayload, payload);
    return post(...p.alerts.map(alertMessage));
  }
  const p = readPayload(TOOL, legacyPayload, payload);
  const head = `${STATES[p.state] ?? strong(p.state)} ${markdownLink(p.ruleName, p.ruleUrl)}`;
  const matches = (p.evalMatches ?? []).map(
    (m) => `* ${codeSpan(m.metric)}: ${m.value ?? 'no value'}`,
  );
  let content = withQuote(head, p.message);
  if (matches.length > 0) content += `\n${matches.join('\n')}`;
  const image = markdownLink('Graph', p.imageUrl);
  if (image.startsWith('[')) content += `\n${image}`;
  return post({ topic: p.title, content, eventType: p.state });
}

export const grafana: Integration = {
  name: 'grafana',
  displayName: TOOL,
  description: 'Alerts firing and resolved, from a Grafana webhook contact point.',
  eventTypes: ['firing', 'resolved', 'alerting', 'ok', 'pending', 'no_data', 'paused'],
  urlOptions: [],
  setup:
    'In Alerting → Contact points → Add contact point: integration Webhook, paste the URL, HTTP method POST; then route the alerts to it in a notification policy.',
  read: readGrafana,
};
