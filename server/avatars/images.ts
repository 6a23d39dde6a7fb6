import { ApiError } from '../core/errors.js';
import { sharp } from '../shared/sharp.js';

/** Zulip's DEFAULT_AVATAR_SIZE and MEDIUM_AVATAR_SIZE: square PNGs cropped to the centre. */
export const AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;
/** Zulip's IMAGE_BOMB_TOTAL_PIXELS. */
const MAX_TOTAL_PIXELS = 90_000_000;

/** Zulip's THUMBNAIL_ACCEPT_IMAGE_TYPES: what it resizes for avatars. */
const AVATAR_TYPES = new Set([
  'image/avif',
  'image/gif',
  'image/heic',
  'image/jpeg',
  'image/png',
  'image/tiff',
  'image/webp',
]);

const badImage = (msg: string) => new ApiError(msg, { code: 'BAD_IMAGE' });

export interface AvatarImages {
  small: Buffer;
  medium: Buffer;
}

/**
 * Zulip's write_avatar_images: the picture (the uploaded file's path, or bytes)
 * at both sizes (first frame of an animation).
 */
export async function resizeAvatar(
  file: string | Buffer,
  claimedType: string,
): Promise<AvatarImages> {
  const bare = claimedType.split(';')[0]!.trim().toLowerCase();
  if (!AVATAR_TYPES.has(bare)) throw badImage('Invalid image format');
  const options = { limitInputPixels: MAX_TOTAL_PIXELS, failOn: 'error' as const };
  try {
    await sharp(file, options).metadata();
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw badImage('Image size exceeds limit.');
    }
    throw badImage('Could not decode image; did you upload an image file?');
  }
  const at = (size: number) =>
    sharp(file, options)
      .rotate()
      .resize(size, size, { fit: 'cover', position: 'centre' })
      .png()
      .toBuffer();
  try {
    const [small, medium] = await Promise.all([at(AVATAR_SIZE), at(MEDIUM_AVATAR_SIZE)]);
    return { small, medium };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw badImage('Image size exceeds limit.');
    }
    throw badImage('Image is corrupted or truncated');
  }
}
