/**
 * Prometheus Alertmanager's webhook receiver (payload version 4). As in
 * Zulip, alerts are grouped into topics by a label (`name`, default
 * "instance") and described by another (`desc`, default "alertname"), each
 * looked up among the labels, then the annotations; one message per topic
 * and status.
 */
import { z } from 'zod';
import { markdownLink, plainText } from '../../markdown/index.js';
import { readPayload } from '../toolkit/payload.js';
import {
  type Integration,
  post,
  type WebhookInput,
  type WebhookMessage,
  type WebhookReading,
} from '../types.js';

const TOOL = 'Alertmanager';

const text = z.union([z.string(), z.number(), z.boolean()]);

const payload = z.object({
  alerts: z.array(
    z.object({
      status: z.string(),
      labels: z.record(z.string(), text).default({}),
      annotations: z.record(z.string(), text).default({}),
      generatorURL: z.string().nullish(),
    }),
  ),
});

const HEADINGS: Record<string, string> = { firing: '🚨 **Firing**', resolved: '✅ **Resolved**' };

function readAlertmanager(input: WebhookInput): WebhookReading {
  const p = readPayload(TOOL, payload, input.payload);
  const topicLabel = input.options.topicLabel ?? 'instance';
  const descriptionLabel = input.options.descriptionLabel ?? 'alertname';
  // topic → status → lines, in the order the alerts came.
  const groups = new Map<string, Map<string, string[]>>();
  for (const alert of p.alerts) {
    const look = (key: string) => alert.labels[key] ?? alert.annotations[key];
    const topic = String(look(topicLabel) ?? '(unknown)');
    const description = String(look(descriptionLabel) ?? `(no ${descriptionLabel})`);
    // Prometheus's link opens the graph tab (g0.tab=0), not the table.
    const url = alert.generatorURL?.replace('tab=1', 'tab=0');
    const graph = markdownLink('graph', url);
    const line = `${plainText(description)}${graph.startsWith('[') ? ` (${graph})` : ''}`;
    const byStatus = groups.get(topic) ?? new Map<string, string[]>();
    groups.set(topic, byStatus);
    byStatus.set(alert.status, [...(byStatus.get(alert.status) ?? []), line]);
  }
  const messages: WebhookMessage[] = [];
  for (const [topic, byStatus] of groups) {
    for (const [status, lines] of byStatus) {
      const heading = HEADINGS[status] ?? `**${plainText(status)}**`;
      const content =
        lines.length === 1
          ? `${heading}: ${lines[0]}`
          : `${heading}\n${lines.map((l) => `* ${l}`).join('\n')}`;
      messages.push({ topic, content, eventType: status });
    }
  }
  return post(...messages);
}

export const alertmanager: Integration = {
  name: 'alertmanager',
  displayName: TOOL,
  description: 'Prometheus alerts firing and resolved, from an Alertmanager webhook receiver.',
  eventTypes: ['firing', 'resolved'],
  urlOptions: [
    { key: 'name', label: 'Label naming the topic (default: instance)', kind: 'text' },
    {
      key: 'desc',
      label: 'Label or annotation describing the alert (default: alertname)',
      kind: 'text',
    },
  ],
  setup:
    'In alertmanager.yml, add a receiver with webhook_configs: - url: <the URL>, and route alerts to it; send_resolved is on by default.',
  read: readAlertmanager,
};
