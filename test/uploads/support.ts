import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { ApiClient } from '../helpers/server.js';

/** Test files: real images made with sharp, and hostile ones made by hand. */

export const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();

export async function animatedGif(width: number, height: number): Promise<Buffer> {
  const frame = (background: string) =>
    sharp({ create: { width, height, channels: 3, background } })
      .png()
      .toBuffer();
  return sharp([await frame('red'), await frame('blue')], { join: { animated: true } })
    .gif()
    .toBuffer();
}

/**
 * A PNG whose header claims `width` x `height` but holds a single pixel's
 * data: reading its size is cheap, decoding it would be a bomb.
 */
export async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const real = await png(1, 1);
  const ihdr = Buffer.from(real.subarray(12, 29)); // "IHDR" + 13 bytes of data
  ihdr.writeUInt32BE(width, 4);
  ihdr.writeUInt32BE(height, 8);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(ihdr) >>> 0);
  return Buffer.concat([real.subarray(0, 12), ihdr, crc, real.subarray(33)]);
}

/** POST /user_uploads with one file; returns the response. */
export function upload(
  client: ApiClient,
  data: Buffer | string,
  name: string,
  type = 'application/octet-stream',
  field = 'file',
) {
  return client.post(
    '/user_uploads',
    { [field]: new File([typeof data === 'string' ? data : new Uint8Array(data)], name, { type }) },
    { encoding: 'multipart' },
  );
}

/** Uploads and returns the response body (url, uri, filename), checking it worked. */
export async function uploadOk(
  client: ApiClient,
  data: Buffer | string,
  name: string,
  type?: string,
): Promise<{ url: string; uri: string; filename: string }> {
  const res = await upload(client, data, name, type);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** "/user_uploads/1/ab/xyz/a.png" -> "1/ab/xyz/a.png" (decoded, as path ids are stored). */
export const pathIdOf = (url: string) => decodeURIComponent(url.replace(/^\/user_uploads\//, ''));
