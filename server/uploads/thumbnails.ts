import type { AppContext } from '../core/context.js';
import {
  type FileStoreHost,
  newFileKey,
  removeStoredFile,
  writeStoredFile,
} from '../core/file-store.js';
import type { StoredThumbnail } from '../db/queries/attachments.js';
import { sharp } from '../shared/sharp.js';
import {
  INLINE_MIME_TYPES,
  THUMBNAIL_FORMATS,
  type ThumbnailFormat,
  TRANSCODED_FORMAT,
  thumbnailFormatName,
} from '../shared/uploads.js';

/**
 * Thumbnails are made when the file is uploaded, so a message linking it is
 * rendered with its final preview at once (Zulip renders a spinner and
 * re-renders when its worker is done; Hearth has no worker to wait for).
 */

/** Types whose bytes are worth decoding (Zulip's THUMBNAIL_ACCEPT_IMAGE_TYPES); the claim is the client's. */
const THUMBNAIL_ACCEPT_TYPES = new Set([
  'image/avif',
  'image/gif',
  'image/heic',
  'image/jpeg',
  'image/png',
  'image/tiff',
  'image/webp',
  'image/svg+xml',
]);

/** Zulip's IMAGE_BOMB_TOTAL_PIXELS: no image larger than this is decoded. */
const MAX_IMAGE_PIXELS = 90_000_000;
/** Animated thumbnails keep at most this many frames, so a long animation cannot cost much. */
const MAX_ANIMATED_FRAMES = 100;

export interface ImageInfo {
  /** As shown, after EXIF rotation. */
  width: number;
  height: number;
  frames: number;
  thumbnails: StoredThumbnail[];
}

interface Header {
  width: number;
  height: number;
  frames: number;
}

async function readHeader(file: string | Buffer): Promise<Header | null> {
  try {
    const meta = await sharp(file, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
    if (!meta.width || !meta.height) return null;
    const frames = meta.pages ?? 1;
    const pageHeight = frames > 1 ? (meta.pageHeight ?? meta.height) : meta.height;
    const pixels = meta.width * pageHeight;
    // Stills get the whole budget; animations must fit three frames in a third of it.
    const cost = frames === 1 ? pixels : pixels * Math.min(3, frames) * 3;
    if (cost > MAX_IMAGE_PIXELS) return null;
    const rotated = meta.orientation !== undefined && meta.orientation >= 5;
    return rotated
      ? { width: pageHeight, height: meta.width, frames }
      : { width: meta.width, height: pageHeight, frames };
  } catch {
    return null;
  }
}

async function render(file: string | Buffer, format: ThumbnailFormat, frames: number) {
  const animated = format.animated && frames > 1;
  const image = sharp(file, {
    limitInputPixels: MAX_IMAGE_PIXELS,
    ...(animated ? { animated: true, pages: Math.min(frames, MAX_ANIMATED_FRAMES) } : {}),
  });
  return image
    .rotate()
    .resize(format.maxWidth, format.maxHeight, { fit: 'inside', withoutEnlargement: true })
    .webp()
    .toBuffer({ resolveWithObject: true });
}

/** The formats an image gets (Zulip's missing_thumbnails for a new image). */
function formatsFor(contentType: string, header: Header): ThumbnailFormat[] {
  const formats = THUMBNAIL_FORMATS.filter((f) => !f.animated || header.frames > 1);
  if (!INLINE_MIME_TYPES.has(contentType)) {
    const portrait = header.width < header.height;
    formats.push(
      portrait
        ? {
            ...TRANSCODED_FORMAT,
            maxWidth: TRANSCODED_FORMAT.maxHeight,
            maxHeight: TRANSCODED_FORMAT.maxWidth,
          }
        : TRANSCODED_FORMAT,
    );
  }
  return formats;
}

/**
 * Decodes an upload (the path of its stored file) that claims to be an
 * image and stores its thumbnails.
 * Anything that does not decode, is too large, or fails to thumbnail is just
 * not an image: the upload succeeds and shows as a plain link.
 */
export async function makeThumbnails(
  ctx: FileStoreHost & Pick<AppContext, 'log'>,
  /** The stored file's path, or its bytes. */
  file: string | Buffer,
  contentType: string,
): Promise<ImageInfo | null> {
  if (!THUMBNAIL_ACCEPT_TYPES.has(contentType)) return null;
  const header = await readHeader(file);
  if (!header) return null;
  const thumbnails: StoredThumbnail[] = [];
  try {
    for (const format of formatsFor(contentType, header)) {
      const { data: bytes, info } = await render(file, format, header.frames);
      const key = newFileKey('uploads', '.webp');
      writeStoredFile(ctx, key, bytes);
      thumbnails.push({
        name: thumbnailFormatName(format),
        key,
        content_type: 'image/webp',
        width: info.width,
        height: info.pageHeight ?? info.height,
        byte_size: bytes.length,
      });
    }
  } catch (err) {
    ctx.log.warn(`thumbnailing failed: ${String(err)}`);
    removeThumbnails(ctx, thumbnails);
    return null;
  }
  return { width: header.width, height: header.height, frames: header.frames, thumbnails };
}

export function removeThumbnails(ctx: FileStoreHost, thumbnails: readonly StoredThumbnail[]): void {
  for (const t of thumbnails) removeStoredFile(ctx, t.key);
}
