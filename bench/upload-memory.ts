/**
 * What hostile uploads cost the server's memory (issue 20, point 7), on the
 * compiled server as `npm start` runs it: eight concurrent uploads without
 * credentials, each a form of four 30 MB files, then one authenticated
 * upload of 1 GB. Figures: the RSS at rest, its peak during each scenario
 * and what is left after, and how much of each body the server took in
 * before it answered. Bodies are streamed from memory the client reuses,
 * so only the server's memory grows.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale, startCompiledServer } from './lib/compiled-server.js';
import { record } from './lib/report.js';

const MB = 1024 * 1024;
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Samples the server's RSS until stopped; answers the highest seen. */
function watchPeak(pid: number): () => number {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMb(pid));
  };
}

/**
 * One multipart upload on a raw connection, its file bytes written as fast
 * as the server takes them until the body ends or an answer arrives.
 * Resolves with the answer's status line and the body bytes written.
 */
function upload(
  url: string,
  authorization: string | null,
  files: number,
  fileBytes: number,
): Promise<{ status: string; sentMb: number }> {
  const boundary = 'bench-boundary';
  const head = (i: number) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"; filename="${i}.bin"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  const tail = `--${boundary}--\r\n`;
  const length =
    files * fileBytes +
    [...Array(files).keys()].reduce((n, i) => n + head(i).length + 2, 0) +
    tail.length;
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
  socket.on('error', () => {});
  let answer = '';
  let sent = 0;
  socket.on('data', (chunk) => (answer += chunk));
  socket.write(
    `POST /api/v1/user_uploads HTTP/1.1\r\nHost: x\r\n` +
      (authorization ? `Authorization: ${authorization}\r\n` : '') +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`,
  );
  const chunk = Buffer.alloc(MB, 0x61);
  // The body as pieces: each part's head, its bytes in 1 MB writes, its CRLF; the tail.
  function* pieces(): Generator<Buffer | string> {
    for (let i = 0; i < files; i++) {
      yield head(i);
      for (let left = fileBytes; left > 0; left -= chunk.length) {
        yield left >= chunk.length ? chunk : chunk.subarray(0, left);
      }
      yield '\r\n';
    }
    yield tail;
  }
  const body = pieces();
  const pump = () => {
    for (;;) {
      if (answer !== '' || socket.destroyed) return;
      const next = body.next();
      if (next.done) return;
      sent += typeof next.value === 'string' ? next.value.length : next.value.length;
      if (!socket.write(next.value)) {
        socket.once('drain', pump);
        return;
      }
    }
  };
  socket.once('connect', pump);
  return new Promise((resolve) => {
    const done = () => {
      socket.destroy();
      resolve({ status: answer.split('\r\n')[0] ?? '(none)', sentMb: sent / MB });
    };
    socket.on('close', done);
    // An answer on a connection kept alive: the request is over.
    socket.on('data', () => {
      if (/\r\n\r\n[\s\S]*\}$/.test(answer)) done();
    });
  });
}

buildIfStale();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-uploads-'));
const server = await startCompiledServer(dataDir);
const zuliprc = readFileSync(path.join(dataDir, 'zuliprc'), 'utf8');
const email = /email=(.*)/.exec(zuliprc)![1]!;
const key = /key=(.*)/.exec(zuliprc)![1]!;
const owner = `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

await sleep(3000);
const atRest = rssMb(server.pid);
record({ name: 'RSS at rest', value: atRest, unit: 'MB' });

let stopWatch = watchPeak(server.pid);
const started = performance.now();
const anonymous = await Promise.all(
  Array.from({ length: 8 }, () => upload(server.url, null, 4, 30 * MB)),
);
const anonymousMs = performance.now() - started;
const anonymousPeak = stopWatch();
await sleep(2000);
record({
  name: '8 uploads without credentials: peak RSS',
  value: anonymousPeak,
  unit: 'MB',
  target: atRest + 50,
  note: `${anonymous[0]!.status}; ${anonymous.map((a) => a.sentMb.toFixed(0)).join('/')} MB sent of 120 each; ${(anonymousMs / 1000).toFixed(1)} s`,
});
console.log(
  `    ${anonymous[0]!.status}; MB sent of 120 each: ${anonymous.map((a) => a.sentMb.toFixed(0)).join(', ')}; ${(anonymousMs / 1000).toFixed(1)} s`,
);
record({ name: '8 uploads without credentials: RSS after', value: rssMb(server.pid), unit: 'MB' });

stopWatch = watchPeak(server.pid);
const bigStarted = performance.now();
const big = await upload(server.url, owner, 1, 1024 * MB);
const bigMs = performance.now() - bigStarted;
const bigPeak = stopWatch();
await sleep(2000);
record({
  name: '1 GB upload with credentials: peak RSS',
  value: bigPeak,
  unit: 'MB',
  target: atRest + 50,
  note: `${big.status}; ${big.sentMb.toFixed(0)} MB sent; ${(bigMs / 1000).toFixed(1)} s`,
});
console.log(`    ${big.status}; ${big.sentMb.toFixed(0)} MB sent; ${(bigMs / 1000).toFixed(1)} s`);
record({ name: '1 GB upload with credentials: RSS after', value: rssMb(server.pid), unit: 'MB' });

await server.stop();
rmSync(dataDir, { recursive: true, force: true });
