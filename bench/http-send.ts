/**
 * End-to-end send rate: POST /messages over HTTP (keep-alive, N concurrent
 * clients) to a channel with 100 subscribers, 20 of whom hold event queues.
 * Target: 2,000 messages/s on this 2-core machine.
 *
 *   npx tsx bench/http-send.ts [--messages 20000] [--concurrency 32]
 */
import { parseArgs } from 'node:util';
import { quick, record } from './lib/report.js';
import { startSendBench } from './lib/send-load.js';

const { values } = parseArgs({
  strict: false,
  options: {
    messages: { type: 'string', default: quick ? '3000' : '20000' },
    concurrency: { type: 'string', default: '32' },
  },
});
const TOTAL = Number(values.messages);
const CONCURRENCY = Number(values.concurrency);

const bench = await startSendBench();
const run = await bench.run(CONCURRENCY, TOTAL);
console.log(
  `  ${TOTAL} sends in ${run.seconds.toFixed(2)} s; CPU s: server ${run.serverCpuSeconds.toFixed(2)} ` +
    `(includes the client's warm-up), client ${run.clientCpuSeconds.toFixed(2)}`,
);
record({
  name: 'POST /messages over HTTP, 100 subscribers',
  value: run.rate,
  unit: 'msg/s',
  target: 2000,
  higherIsBetter: true,
  note: `20 with event queues, ${CONCURRENCY} concurrent clients`,
});
await bench.close();
