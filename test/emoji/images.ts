/** Small images made on the fly for upload tests. */
import zlib from 'node:zlib';
import sharp from 'sharp';

export const pngImage = (width: number, height: number, color = '#e11d48') =>
  sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();

/** An animated GIF (or WebP) of `colors.length` frames, each `width` x `height`. */
export async function animatedGif(
  width: number,
  height: number,
  colors = ['#f00', '#0f0', '#00f'],
  format: 'gif' | 'webp' = 'gif',
): Promise<Buffer> {
  const frames = await Promise.all(
    colors.map((background) =>
      sharp({ create: { width, height, channels: 4, background } })
        .raw()
        .toBuffer(),
    ),
  );
  return sharp(Buffer.concat(frames), {
    raw: { width, height: height * colors.length, channels: 4, pageHeight: height },
  })
    .toFormat(format, { delay: colors.map(() => 100) })
    .toBuffer();
}

/** The File a client sends as one multipart part. */
export const imageFile = (bytes: Buffer, name: string, type: string) =>
  new File([new Uint8Array(bytes)], name, { type });

export async function imageInfo(bytes: ArrayBuffer | Buffer) {
  const meta = await sharp(Buffer.from(bytes as ArrayBuffer), { animated: true }).metadata();
  return {
    format: meta.format,
    width: meta.width,
    height: meta.pageHeight ?? meta.height,
    pages: meta.pages ?? 1,
  };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A tiny file whose header claims 20000x20000 pixels: a decompression bomb by its dimensions. */
export function hugeDimensionsPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(20_000, 0);
  header.writeUInt32BE(20_000, 4);
  header[8] = 8; // bit depth; colour type 0 (grey)
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(100))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
