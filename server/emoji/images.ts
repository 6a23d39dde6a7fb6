import type { Sharp } from 'sharp';
import { ApiError } from '../core/errors.js';
import { sharp } from '../shared/sharp.js';

/**
 * Custom emoji images as Zulip stores them: 64x64, in the format they were
 * uploaded in; animated ones keep their animation and get a still PNG of the
 * first frame for clients that do not animate.
 */

const EMOJI_SIZE = 64;
/** Zulip's IMAGE_BOMB_TOTAL_PIXELS: decoding more than this is refused. */
const MAX_TOTAL_PIXELS = 90_000_000;
/** Zulip's MAX_EMOJI_GIF_FILE_SIZE_BYTES: a resized emoji larger than this is refused. */
const MAX_RESIZED_BYTES = 128 * 1024;

/** Image formats Zulip both thumbnails and serves inline; the extension is Python's guess for each. */
const EMOJI_FORMATS = {
  'image/png': { extension: 'png', animates: false },
  'image/gif': { extension: 'gif', animates: true },
  'image/jpeg': { extension: 'jpg', animates: false },
  'image/webp': { extension: 'webp', animates: true },
  'image/avif': { extension: 'avif', animates: false },
} as const;
type EmojiContentType = keyof typeof EMOJI_FORMATS;

const CONTENT_TYPE_BY_EXTENSION: Record<string, string> = Object.fromEntries(
  Object.entries(EMOJI_FORMATS).map(([type, format]) => [format.extension, type]),
);

export const badImage = (msg: string) => new ApiError(msg, { code: 'BAD_IMAGE' });

/** The stored format for a client's claimed content type (parameters such as charset dropped). */
export function emojiFormatFor(claimedType: string): {
  contentType: EmojiContentType;
  extension: string;
} {
  const bare = claimedType.split(';')[0]!.trim().toLowerCase();
  if (!(bare in EMOJI_FORMATS)) throw badImage('Invalid image format');
  const contentType = bare as EmojiContentType;
  return { contentType, extension: EMOJI_FORMATS[contentType].extension };
}

/** The content type a stored emoji file is served with, from its extension. */
export function emojiContentType(fileName: string): string {
  const extension = fileName.slice(fileName.lastIndexOf('.') + 1);
  return CONTENT_TYPE_BY_EXTENSION[extension] ?? 'application/octet-stream';
}

export interface ResizedEmoji {
  image: Buffer;
  /** The first frame as PNG; null when the stored image does not animate. */
  still: Buffer | null;
}

/**
 * Zulip's resize_emoji. Still images are cropped to the centre square;
 * animations are fitted inside the square and padded with transparency, so
 * no frame loses its edges. An animation uploaded as a format that cannot
 * animate (e.g. claimed as PNG) keeps only its first frame. `file` is the
 * uploaded file's path, or its bytes (an import).
 */
export async function resizeEmoji(
  file: string | Buffer,
  claimedType: string,
): Promise<ResizedEmoji> {
  const { contentType } = emojiFormatFor(claimedType);
  const options = { limitInputPixels: MAX_TOTAL_PIXELS, failOn: 'error' as const };
  let pages: number;
  try {
    const meta = await sharp(file, { ...options, animated: true }).metadata();
    pages = meta.pages ?? 1;
    const frameHeight = meta.pageHeight ?? meta.height ?? 0;
    if ((meta.width ?? 0) * frameHeight * pages > MAX_TOTAL_PIXELS) {
      throw badImage('Image size exceeds limit.');
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw badImage('Image size exceeds limit.');
    }
    throw badImage('Could not decode image; did you upload an image file?');
  }
  const animated = pages > 1 && EMOJI_FORMATS[contentType].animates;
  try {
    const still = sharp(file, options).resize(EMOJI_SIZE, EMOJI_SIZE, {
      fit: 'cover',
      position: 'centre',
    });
    if (!animated) {
      const image = await encode(still, contentType).toBuffer();
      if (image.length > MAX_RESIZED_BYTES) throw badImage('Image size exceeds limit');
      return { image, still: null };
    }
    const stillPng = await still.png().toBuffer();
    const image = await encode(
      sharp(file, { ...options, animated: true }).resize(EMOJI_SIZE, EMOJI_SIZE, {
        fit: 'contain',
        background: { r: 0, g: 0, b: 0, alpha: 0 },
      }),
      contentType,
    ).toBuffer();
    if (stillPng.length > MAX_RESIZED_BYTES || image.length > MAX_RESIZED_BYTES) {
      throw badImage('Image size exceeds limit');
    }
    return { image, still: stillPng };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badImage('Image is corrupted or truncated');
  }
}

function encode(image: Sharp, contentType: EmojiContentType): Sharp {
  switch (contentType) {
    case 'image/png':
      return image.png();
    case 'image/gif':
      return image.gif();
    case 'image/jpeg':
      return image.jpeg();
    case 'image/webp':
      return image.webp();
    case 'image/avif':
      return image.avif();
  }
}
