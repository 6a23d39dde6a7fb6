/**
 * The end-to-end send setup the HTTP send benches share: the server in this
 * process with a channel of 100 subscribers, 20 of whom hold event queues,
 * and a load generator in another process (bench/http-send-client.ts)
 * sending POST /messages over keep-alive sockets, as real clients would:
 * the server keeps one core to itself.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { insertStream, insertSubscription } from '../../server/db/queries/streams.js';
import { userById } from '../../server/db/queries/users.js';
import { createServer, type RunningServer } from '../../server/index.js';
import { createOrganization } from '../../server/realm/organization.js';
import { createUser } from '../../server/users/users.js';

export interface SendRun {
  /** Sends answered per second over the measured sends. */
  rate: number;
  seconds: number;
  serverCpuSeconds: number;
  clientCpuSeconds: number;
}

export interface SendBench {
  server: RunningServer;
  /**
   * `total` sends from `concurrency` clients, each waiting for its answer
   * before the next, after `warmup` sends from one of them.
   */
  run(concurrency: number, total: number, warmup?: number): Promise<SendRun>;
  close(): Promise<void>;
}

export async function startSendBench(): Promise<SendBench> {
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

  async function run(concurrency: number, total: number, warmup = 500): Promise<SendRun> {
    const serverCpuStart = process.cpuUsage();
    const client = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('../http-send-client.ts', import.meta.url).pathname],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: {
          ...process.env,
          BENCH_CONFIG: JSON.stringify({
            url: `${server.url}/api/v1/messages`,
            senders,
            streamId,
            total,
            concurrency,
            warmup,
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
    return {
      rate: total / seconds,
      seconds,
      serverCpuSeconds: (serverCpu.user + serverCpu.system) / 1e6,
      clientCpuSeconds,
    };
  }

  return {
    server,
    run,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
