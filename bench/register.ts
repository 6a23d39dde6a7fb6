/**
 * POST /register for a member of a 1,000-user, 200-channel organization
 * (each user in 30 channels), over HTTP with keep-alive, one at a time.
 * Targets: p50 < 20 ms, p99 < 40 ms. Also the process's CPU time per
 * register (server and client share it), which the other processes of a
 * busy machine disturb far less than the wall-clock figures.
 */
import http from 'node:http';
import os from 'node:os';
import { createServer } from '../server/index.js';
import { cachedDataDir } from './lib/cache.js';
import { basicAuthOf, buildOrg } from './lib/org.js';
import { percentile, quick, record } from './lib/report.js';

const shape = {
  users: quick ? 200 : 1000,
  channels: quick ? 50 : 200,
  subscriptionsPerUser: 30,
  messages: 2000,
};
const { dataDir, cleanup } = await cachedDataDir(
  `register-${shape.users}u-${shape.channels}c`,
  (dir) => buildOrg(dir, shape),
);
const server = await createServer({ dataDir, port: 0, rateLimit: false, logFile: false });
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function register(auth: string): Promise<number> {
  const body = 'apply_markdown=true&client_gravatar=false';
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}/api/v1/register`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: auth,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - start)
            : reject(new Error(`register: status ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const auths = [5, 17, 123 % shape.users, 321 % shape.users].map((i) => basicAuthOf(server, i));
for (let i = 0; i < 30; i++) await register(auths[i % auths.length]!);
const samples: number[] = [];
const cpuBefore = process.cpuUsage();
for (let i = 0; i < (quick ? 100 : 300); i++)
  samples.push(await register(auths[i % auths.length]!));
const cpu = process.cpuUsage(cpuBefore);
const note = `${shape.users} users, ${shape.channels} channels, ${shape.subscriptionsPerUser} subscriptions each; load average ${os.loadavg()[0]!.toFixed(2)}`;
record({
  name: 'POST /register p50',
  value: percentile(samples, 50),
  unit: 'ms',
  target: 20,
  note,
});
record({
  name: 'POST /register p99',
  value: percentile(samples, 99),
  unit: 'ms',
  target: 40,
  note,
});
record({
  name: 'POST /register CPU time',
  value: (cpu.user + cpu.system) / 1000 / samples.length,
  unit: 'ms',
  note,
});

agent.destroy();
await server.close();
cleanup();
