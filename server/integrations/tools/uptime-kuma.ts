/**
 * Uptime Kuma's Webhook notification (body preset "application/json"):
 * `{ heartbeat, monitor, msg }`, both null for the "Test" button. One topic
 * per monitor.
 */
import { z } from 'zod';
import { linkTarget, plainText } from '../../markdown/index.js';
import { readPayload } from '../toolkit/payload.js';
import { strong } from '../toolkit/text.js';
import { type Integration, post, type WebhookInput, type WebhookReading } from '../types.js';

const TOOL = 'Uptime Kuma';

const payload = z.object({
  msg: z.string().nullish(),
  monitor: z
    .object({
      name: z.string(),
      url: z.string().nullish(),
      hostname: z.string().nullish(),
      port: z.union([z.number(), z.string()]).nullish(),
      type: z.string().nullish(),
    })
    .nullish(),
  heartbeat: z
    .object({
      status: z.number(),
      msg: z.string().nullish(),
      ping: z.number().nullish(),
    })
    .nullish(),
});

/** Uptime Kuma's heartbeat states (DOWN, UP, PENDING, MAINTENANCE). */
const STATES: Record<number, { event: string; says: string }> = {
  0: { event: 'down', says: '🔴 %s is **down**' },
  1: { event: 'up', says: '🟢 %s is **up**' },
  2: { event: 'pending', says: '🟡 %s is **not responding** (retrying)' },
  3: { event: 'maintenance', says: '🔧 %s is **under maintenance**' },
};

function readUptimeKuma(input: WebhookInput): WebhookReading {
  const p = readPayload(TOOL, payload, input.payload);
  if (!p.monitor || !p.heartbeat) {
    // The notification's "Test" button sends only msg.
    const said = p.msg ? `: ${plainText(p.msg)}` : '.';
    return post({ topic: TOOL, content: `Uptime Kuma can post here${said}`, eventType: 'test' });
  }
  const { monitor, heartbeat } = p;
  const state = STATES[heartbeat.status] ?? {
    event: 'unknown',
    says: `%s changed to status ${heartbeat.status}`,
  };
  const target =
    monitor.url && /^https?:\/\//.test(monitor.url) && monitor.url !== 'https://'
      ? (linkTarget(monitor.url) ?? '')
      : monitor.hostname
        ? plainText(`${monitor.hostname}${monitor.port ? `:${monitor.port}` : ''}`)
        : '';
  let content = state.says.replace('%s', strong(monitor.name));
  if (heartbeat.msg) content += `: ${plainText(heartbeat.msg)}`;
  if (heartbeat.status === 1 && typeof heartbeat.ping === 'number')
    content += ` (${Math.round(heartbeat.ping)} ms)`;
  if (target) content += `\n${target}`;
  return post({ topic: monitor.name, content, eventType: state.event });
}

export const uptimeKuma: Integration = {
  name: 'uptimekuma',
  displayName: TOOL,
  description: 'Monitors going down and coming back up, from Uptime Kuma.',
  eventTypes: ['down', 'up', 'pending', 'maintenance', 'test'],
  urlOptions: [],
  setup:
    'In Settings → Notifications → Setup Notification: type Webhook, paste the URL as the Post URL, request body "application/json"; then enable it on the monitors.',
  read: readUptimeKuma,
};
