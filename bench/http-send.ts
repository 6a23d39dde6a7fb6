/**
 * End-to-end send rate: POST /messages over HTTP (keep-alive, N concurrent
 * clients) to a channel with 100 subscribers, 20 of whom hold event queues.
 * Target: 2,000 messages/s on this 2-core machine.
 *
 *   npx tsx bench/http-send.ts [--messages 20000] [--concurrency 32]
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { insertStream, insertSubscription } from '../server/db/queries/streams.js';
import { userById } from '../server/db/queries/users.js';
import { createServer } from '../server/index.js';
import { createOrganization } from '../server/realm/organization.js';
import { createUser } from '../server/users/users.js';
import { quick, record } from './lib/report.js';

const { values } = parseArgs({
  strict: false,
  options: {
    messages: { type: 'string', default: quick ? '3000' : '20000' },
    concurrency: { type: 'string', default: '32' },
  },
});
const TOTAL = Number(values.messages);
const CONCURRENCY = Number(values.concurrency);

const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-http-bench-'));
const server = await createServer({ dataDir: dir, port: 0, rateLimit: false });
const { ctx } = server;
const owner = await createOrganization(ctx, {
  name: 'Bench',
  emailDomain: 'bench.test',
  ownerEmail: 'owner@bench.test',
  ownerName: 'Owner',
  ownerPassword: 'bench-password',
});
const ids = [owner.user_id];
for (let i = 1; i < 100; i++) {
  ids.push(
    (
      await createUser(ctx, null, {
        email: `u${i}@bench.test`,
        password: null,
        fullName: `User ${i}`,
      })
    ).user_id,
  );
}
const streamId = ctx.transaction(() => {
  const id = insertStream(ctx.db, {
    name: 'bench',
    description: '',
    rendered_description: '',
    invite_only: false,
    is_web_public: false,
    history_public_to_subscribers: true,
    date_created: 0,
    creator_id: null,
  });
  for (const userId of ids) insertSubscription(ctx.db, id, userId, '#76ce90');
  return id;
});
for (const userId of ids.slice(0, 20)) {
  ctx.events.register({
    userId,
    eventTypes: new Set(['message']),
    narrow: [],
    allPublicStreams: false,
    applyMarkdown: true,
    slimPresence: false,
    capabilities: {
      notification_settings_null: false,
      bulk_message_deletion: true,
      user_avatar_url_field_optional: false,
      stream_typing_notifications: false,
      user_settings_object: true,
      linkifier_url_template: true,
      user_list_incomplete: false,
      include_deactivated_groups: false,
      archived_channels: false,
      empty_topic_name: true,
      simplified_presence_events: false,
    },
    clientName: 'bench',
  });
}

const senders = ids.slice(0, 10).map((id) => {
  const user = userById(ctx.db, id)!;
  return `Basic ${Buffer.from(`${user.delivery_email}:${user.api_key}`).toString('base64')}`;
});
// The load comes from a separate process, as real clients would: the server
// keeps one core to itself.
const serverCpuStart = process.cpuUsage();
const client = spawn(
  process.execPath,
  ['--import', 'tsx', new URL('./http-send-client.ts', import.meta.url).pathname],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      BENCH_CONFIG: JSON.stringify({
        url: `${server.url}/api/v1/messages`,
        senders,
        streamId,
        total: TOTAL,
        concurrency: CONCURRENCY,
      }),
    },
  },
);
let output = '';
client.stdout.on('data', (chunk) => {
  output += chunk;
});
await new Promise<void>((resolve, reject) => {
  client.once('exit', (code) =>
    code === 0 ? resolve() : reject(new Error(`load generator exited ${code}`)),
  );
});
const { seconds, clientCpuSeconds } = JSON.parse(output) as {
  seconds: number;
  clientCpuSeconds: number;
};
// How much each process worked says whether a miss is the server's or the machine's.
const serverCpu = process.cpuUsage(serverCpuStart);
console.log(
  `  ${TOTAL} sends in ${seconds.toFixed(2)} s; CPU s: server ${((serverCpu.user + serverCpu.system) / 1e6).toFixed(2)} ` +
    `(includes the client's warm-up), client ${clientCpuSeconds.toFixed(2)}`,
);
record({
  name: 'POST /messages over HTTP, 100 subscribers',
  value: TOTAL / seconds,
  unit: 'msg/s',
  target: 2000,
  higherIsBetter: true,
  note: `20 with event queues, ${CONCURRENCY} concurrent clients`,
});

await server.close();
rmSync(dir, { recursive: true, force: true });
