/**
 * Jenkins, through its Notification plugin ("Job Notification Endpoints",
 * format JSON, protocol HTTP): one payload per build phase (QUEUED,
 * STARTED, COMPLETED, FINALIZED). Zulip's own Jenkins integration is a
 * Jenkins plugin calling the REST API; this URL serves teams that would
 * rather not install one.
 */
import { z } from 'zod';
import { codeSpan, markdownLink } from '../../markdown/index.js';
import { unsupportedEvent } from '../toolkit/errors.js';
import { shortSha } from '../toolkit/git.js';
import { readPayload } from '../toolkit/payload.js';
import { duration, strong } from '../toolkit/text.js';
import {
  type Integration,
  ignore,
  post,
  type WebhookInput,
  type WebhookReading,
} from '../types.js';

const TOOL = 'Jenkins';

const buildPayload = z.object({
  name: z.string(),
  display_name: z.string().nullish(),
  url: z.string().nullish(),
  build: z.object({
    full_url: z.string().nullish(),
    number: z.number(),
    phase: z.string(),
    status: z.string().nullish(),
    duration: z.number().nullish(),
    scm: z
      .object({
        branch: z.string().nullish(),
        commit: z.string().nullish(),
        url: z.string().nullish(),
      })
      .nullish(),
  }),
});

const RESULTS: Record<string, string> = {
  SUCCESS: '✅ succeeded',
  FAILURE: '❌ failed',
  UNSTABLE: '⚠️ is unstable',
  ABORTED: 'was aborted',
  NOT_BUILT: 'was not built',
};

function readJenkins(input: WebhookInput): WebhookReading {
  const p = readPayload(TOOL, buildPayload, input.payload);
  const build = p.build;
  const phase = build.phase.toUpperCase();
  if (phase === 'QUEUED' || phase === 'FINALIZED') {
    return ignore(`a build ${phase.toLowerCase()} (started and completed builds are posted)`);
  }
  const job = p.display_name || p.name;
  const link = markdownLink(`#${build.number}`, build.full_url);
  const scm = build.scm;
  const branch = scm?.branch ? ` on ${codeSpan(scm.branch.replace(/^origin\//, ''))}` : '';
  const commit = scm?.commit ? ` (${codeSpan(shortSha(scm.commit))})` : '';
  let content: string;
  if (phase === 'STARTED') {
    content = `Build ${link} of ${strong(job)} started${branch}${commit}.`;
  } else if (phase === 'COMPLETED') {
    const status = (build.status ?? '').toUpperCase();
    const outcome = RESULTS[status] ?? `finished (${status || 'no result'})`;
    const took = build.duration ? ` in ${duration(build.duration / 1000)}` : '';
    content = `Build ${link} of ${strong(job)} ${outcome}${took}${branch}${commit}.`;
  } else {
    throw unsupportedEvent(TOOL, phase);
  }
  return post({ topic: job, content, eventType: phase.toLowerCase() });
}

export const jenkins: Integration = {
  name: 'jenkins',
  displayName: TOOL,
  description: 'Builds started and finished, from the Notification plugin of a Jenkins server.',
  eventTypes: ['started', 'completed'],
  urlOptions: [],
  setup:
    'Install the Notification plugin; in the job, Job Notifications → Add Endpoint: format JSON, protocol HTTP, event "All Events" (or started and completed), and paste the URL.',
  read: readJenkins,
};
