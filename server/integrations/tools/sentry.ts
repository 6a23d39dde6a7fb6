/**
 * Sentry: an internal integration's webhooks (the Sentry-Hook-Resource
 * header names the resource: event_alert, error, issue, metric_alert), and
 * the legacy WebHooks plugin (no header). Topics are the issue or alert, as
 * in Zulip.
 */
import { z } from 'zod';
import { codeSpan, markdownLink } from '../../markdown/index.js';
import { unsupportedEvent } from '../toolkit/errors.js';
import { readPayload } from '../toolkit/payload.js';
import { strong, withQuote } from '../toolkit/text.js';
import {
  type Integration,
  ignore,
  post,
  type WebhookInput,
  type WebhookReading,
} from '../types.js';

const TOOL = 'Sentry';

const event = z.object({
  title: z.string(),
  web_url: z.string().nullish(),
  url: z.string().nullish(),
  level: z.string().nullish(),
  culprit: z.string().nullish(),
  environment: z.string().nullish(),
});

const eventPayload = z.object({
  data: z.object({
    event: event.optional(),
    error: event.optional(),
    triggered_rule: z.string().nullish(),
  }),
});

const issuePayload = z.object({
  action: z.string(),
  actor: z.object({ name: z.string().nullish() }).nullish(),
  data: z.object({
    issue: z.object({
      title: z.string(),
      shortId: z.string().nullish(),
      web_url: z.string().nullish(),
      permalink: z.string().nullish(),
      level: z.string().nullish(),
      culprit: z.string().nullish(),
      project: z.object({ name: z.string().nullish(), slug: z.string().nullish() }).nullish(),
      assignedTo: z.object({ type: z.string().nullish(), name: z.string().nullish() }).nullish(),
    }),
  }),
});

const metricAlertPayload = z.object({
  action: z.string(),
  data: z.object({
    description_title: z.string(),
    description_text: z.string().nullish(),
    web_url: z.string().nullish(),
    metric_alert: z.object({ alert_rule: z.object({ name: z.string() }).nullish() }).nullish(),
  }),
});

const legacyPayload = z.object({
  project_name: z.string(),
  message: z.string().nullish(),
  culprit: z.string().nullish(),
  url: z.string().nullish(),
  level: z.string().nullish(),
});

const LEVELS: Record<string, string> = {
  fatal: '💥',
  error: '🐞',
  warning: '⚠️',
  info: 'ℹ️',
  debug: '🔍',
};

const levelMark = (level: string | null | undefined) =>
  `${LEVELS[level ?? ''] ?? '🐞'} ${strong(level ?? 'error')}`;

function readSentry(input: WebhookInput): WebhookReading {
  const resource = input.header('Sentry-Hook-Resource');
  const read = <S extends z.ZodType>(schema: S) => readPayload(TOOL, schema, input.payload);
  switch (resource) {
    case undefined: {
      const p = read(legacyPayload);
      let content = `${levelMark(p.level)} in ${strong(p.project_name)}: ${markdownLink(p.message || 'event', p.url)}`;
      if (p.culprit) content += `\n${codeSpan(p.culprit)}`;
      return post({ topic: p.project_name, content, eventType: 'event' });
    }
    case 'event_alert':
    case 'error': {
      const p = read(eventPayload);
      const e = p.data.event ?? p.data.error;
      if (!e) throw unsupportedEvent(TOOL, resource);
      const lines = [`${levelMark(e.level)}: ${markdownLink(e.title, e.web_url ?? e.url)}`];
      if (e.culprit) lines.push(codeSpan(e.culprit));
      const facts = [
        e.environment ? `environment ${codeSpan(e.environment)}` : '',
        p.data.triggered_rule ? `alert rule ${strong(p.data.triggered_rule)}` : '',
      ].filter(Boolean);
      if (facts.length > 0) lines.push(facts.join(', '));
      return post({ topic: e.title, content: lines.join('\n'), eventType: resource });
    }
    case 'issue': {
      const p = read(issuePayload);
      const issue = p.data.issue;
      const link = markdownLink(issue.shortId ?? issue.title, issue.web_url ?? issue.permalink);
      const actor = strong(p.actor?.name ?? 'Sentry');
      const project = issue.project?.name ?? issue.project?.slug;
      let content: string;
      switch (p.action) {
        case 'created':
          content = `${levelMark(issue.level)}: new issue ${link}${project ? ` in ${strong(project)}` : ''}`;
          if (issue.culprit) content += `\n${codeSpan(issue.culprit)}`;
          break;
        case 'resolved':
          content = `${actor} resolved ${link}.`;
          break;
        case 'unresolved':
          content = `${link} is unresolved again.`;
          break;
        case 'assigned': {
          const to = issue.assignedTo?.name;
          const who = to
            ? `${issue.assignedTo?.type === 'team' ? 'team ' : ''}${strong(to)}`
            : 'someone';
          content = `${actor} assigned ${link} to ${who}.`;
          break;
        }
        case 'ignored':
        case 'archived':
          content = `${actor} archived ${link}.`;
          break;
        default:
          throw unsupportedEvent(TOOL, `issue:${p.action}`);
      }
      return post({ topic: issue.title, content, eventType: `issue_${p.action}` });
    }
    case 'metric_alert': {
      const p = read(metricAlertPayload);
      const heads: Record<string, string> = {
        critical: '🚨 **Critical**',
        warning: '⚠️ **Warning**',
        resolved: '✅ **Resolved**',
      };
      const head = heads[p.action] ?? strong(p.action);
      const topic = p.data.metric_alert?.alert_rule?.name ?? p.data.description_title;
      const content = withQuote(
        `${head}: ${markdownLink(p.data.description_title, p.data.web_url)}`,
        p.data.description_text,
      );
      return post({ topic, content, eventType: `metric_alert_${p.action}` });
    }
    case 'installation':
      return ignore('the integration was installed or removed');
    default:
      throw unsupportedEvent(TOOL, resource);
  }
}

export const sentry: Integration = {
  name: 'sentry',
  displayName: TOOL,
  description: 'Errors, issues and metric alerts from Sentry (self-hosted or sentry.io).',
  eventTypes: [
    'event_alert',
    'error',
    'event',
    'issue_created',
    'issue_resolved',
    'issue_unresolved',
    'issue_assigned',
    'issue_ignored',
    'issue_archived',
    'metric_alert_critical',
    'metric_alert_warning',
    'metric_alert_resolved',
  ],
  urlOptions: [],
  setup:
    'In Settings → Developer Settings → New Internal Integration: paste the URL as the Webhook URL, tick "Alert Rule Action" and the issue or error resources; then add "Send a notification via" the integration to alert rules.',
  read: readSentry,
};
