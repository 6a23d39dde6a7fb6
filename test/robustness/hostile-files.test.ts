/**
 * The endpoints that take files (uploads, avatars, custom emoji) and serve
 * them, fed hostile files, names, headers and byte ranges: never a 5xx, an
 * error is Zulip's JSON envelope, a refused upload stores nothing.
 */
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type Answer, problemWith } from './answer-rules.js';
import { type Callers, setUpCallers } from './callers.js';
import { ChangeWatch } from './db-digest.js';

let t: TestServer;
let callers: Callers;
let watch: ChangeWatch;
let tinyPng: Buffer;
let servedUpload: string;

beforeAll(async () => {
  t = await startTestServer({ scheduledDelivery: false });
  callers = setUpCallers(t);
  watch = new ChangeWatch(t.server.ctx.db);
  tinyPng = await sharp({
    create: { width: 2, height: 2, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 1 } },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new File([new Uint8Array(tinyPng)], 'ok.png', { type: 'image/png' }));
  const res = await fetch(`${t.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: { authorization: callers.authorization('member')! },
    body: form,
  });
  servedUpload = ((await res.json()) as { url: string }).url;
});
afterAll(() => t.close());

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG header claiming an image far larger than any limit (a decompression bomb's shape). */
function giantPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(200_000, 0);
  ihdr.writeUInt32BE(200_000, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const hostileFiles = (): [label: string, data: Uint8Array, name: string, type: string][] => [
  ['empty', new Uint8Array(0), 'empty.png', 'image/png'],
  [
    'random bytes as PNG',
    new Uint8Array(4096).map((_, i) => (i * 7919) % 256),
    'x.png',
    'image/png',
  ],
  ['truncated PNG', new Uint8Array(tinyPng.subarray(0, 40)), 'cut.png', 'image/png'],
  ['giant PNG', new Uint8Array(giantPng()), 'giant.png', 'image/png'],
  [
    'SVG with script',
    new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
    ),
    'evil.svg',
    'image/svg+xml',
  ],
  ['HTML as image', new TextEncoder().encode('<html><script>1</script>'), 'a.gif', 'image/gif'],
  ['path traversal name', new Uint8Array(tinyPng), '../../../etc/passwd', 'image/png'],
  ['null byte name', new Uint8Array(tinyPng), 'a\u0000b.png', 'image/png'],
  ['long name', new Uint8Array(tinyPng), `${'n'.repeat(2_000)}.png`, 'image/png'],
  ['RTL override name', new Uint8Array(tinyPng), '\u202Egnp.exe', 'application/x-msdownload'],
  ['lone surrogate name', new Uint8Array(tinyPng), '\uD800.png', 'image/png'],
];

const uploadEndpoints = [
  ['POST', '/api/v1/user_uploads'],
  ['POST', '/api/v1/users/me/avatar'],
  ['POST', '/api/v1/realm/emoji/fuzzed_emoji'],
] as const;

async function answerOf(res: Response): Promise<Answer> {
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text: await res.text(),
  };
}

describe('hostile files', () => {
  it.each(uploadEndpoints)('%s %s', async (method, path) => {
    const problems: string[] = [];
    for (const who of ['owner', 'member', 'guest', 'generic_bot'] as const) {
      for (const [label, data, name, type] of hostileFiles()) {
        const form = new FormData();
        form.append('file', new File([new Uint8Array(data)], name, { type }));
        watch.before();
        const answer = await answerOf(
          await fetch(t.url + path, {
            method,
            headers: { authorization: callers.authorization(who)! },
            body: form,
          }),
        );
        const changed = answer.status >= 400 && watch.changed();
        const problem = problemWith({ atRoot: false }, answer, changed);
        if (problem) problems.push(`${who} ${label}: ${problem}`);
      }
      // More file parts than any endpoint reads, and a field where the file should be.
      for (const form of [fiveFiles(), fieldInsteadOfFile()]) {
        watch.before();
        const answer = await answerOf(
          await fetch(t.url + path, {
            method,
            headers: { authorization: callers.authorization(who)! },
            body: form,
          }),
        );
        const problem = problemWith(
          { atRoot: false },
          answer,
          answer.status >= 400 && watch.changed(),
        );
        if (problem) problems.push(`${who} odd form: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  function fiveFiles(): FormData {
    const form = new FormData();
    for (let i = 0; i < 5; i++) {
      form.append(`f${i}`, new File([new Uint8Array(tinyPng)], `${i}.png`, { type: 'image/png' }));
    }
    return form;
  }

  function fieldInsteadOfFile(): FormData {
    const form = new FormData();
    form.append('file', 'not a file');
    return form;
  }
});

describe('hostile headers and ranges on served files', () => {
  const ranges = [
    'bytes=abc',
    'bytes=999999-',
    'bytes=-0',
    'bytes=0-0,2-3',
    'bytes=5-1',
    'bytes=-99999999999999999999',
    'bytes=0-9007199254740993',
    'items=0-1',
  ];

  it.each(ranges)('Range: %s', async (range) => {
    const res = await fetch(t.url + servedUpload, {
      headers: { authorization: callers.authorization('member')!, range },
    });
    await res.arrayBuffer();
    expect(res.status).toBeLessThan(500);
    expect([200, 206, 416]).toContain(res.status);
  });

  const authorizations = [
    'Basic',
    'Basic !!!!',
    `Basic ${Buffer.from('no-colon').toString('base64')}`,
    `Basic ${Buffer.from(':').toString('base64')}`,
    `Basic ${Buffer.from('\u0000:\u0000').toString('base64')}`,
    `Basic ${Buffer.from(`member@example.com:${'k'.repeat(10_000)}`).toString('base64')}`,
    'Bearer abc',
    'Basic a b c',
    `Basic ${'A'.repeat(6_000)}`,
  ];

  it.each(authorizations)('Authorization: %s', async (authorization) => {
    for (const path of [servedUpload, '/api/v1/users/me', '/api/v1/messages']) {
      const res = await fetch(t.url + path.slice(0, 200), {
        method: path === '/api/v1/messages' ? 'POST' : 'GET',
        headers: { authorization: authorization.slice(0, 7_000) },
      });
      const answer = await answerOf(res);
      expect(problemWith({ atRoot: false }, answer, false), path).toBeNull();
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
  });

  const contentTypes = [
    'application/json; charset=utf-16',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'application/x-www-form-urlencoded; charset=latin1',
    'text/plain',
    'application/json',
  ];

  it.each(contentTypes)('Content-Type: %s with a body that does not match', async (type) => {
    watch.before();
    const res = await fetch(`${t.url}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: callers.authorization('member')!, 'content-type': type },
      body: '--x\r\nContent-Disposition: form-data; name="content"\r\n\r\n{"type": "stream"',
    });
    const answer = await answerOf(res);
    expect(
      problemWith({ atRoot: false }, answer, answer.status >= 400 && watch.changed()),
    ).toBeNull();
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });
});
