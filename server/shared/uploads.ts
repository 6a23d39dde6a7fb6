/**
 * What the uploads area, the renderer and register share about uploaded
 * files: the thumbnail formats, the content types served inline, how a
 * message previews an image, and how a path id appears in a URL.
 */

/**
 * The thumbnail formats uploaded images are made in (Zulip's
 * THUMBNAIL_OUTPUT_FORMATS): register's `server_thumbnail_formats`, the
 * uploads area that makes them and the renderer that links them agree on
 * these. The first still and first animated format are the ones messages link.
 */
export interface ThumbnailFormat {
  maxWidth: number;
  maxHeight: number;
  animated: boolean;
  extension: 'webp';
}

export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [
  { maxWidth: 840, maxHeight: 560, animated: true, extension: 'webp' },
  { maxWidth: 840, maxHeight: 560, animated: false, extension: 'webp' },
];

/**
 * The extra large still made of images browsers do not show natively
 * (HEIC, TIFF), for clients to show instead of the original
 * (`data-transcoded-image`); portrait images get it with the sides swapped.
 */
export const TRANSCODED_FORMAT: ThumbnailFormat = {
  maxWidth: 4032,
  maxHeight: 3024,
  animated: false,
  extension: 'webp',
};

/** "840x560.webp", "840x560-anim.webp": the last part of a thumbnail's URL. */
export function thumbnailFormatName(f: ThumbnailFormat): string {
  return `${f.maxWidth}x${f.maxHeight}${f.animated ? '-anim' : ''}.${f.extension}`;
}

/** The `server_thumbnail_formats` register field. */
export function serverThumbnailFormats() {
  return THUMBNAIL_FORMATS.map((f) => ({
    name: thumbnailFormatName(f),
    max_width: f.maxWidth,
    max_height: f.maxHeight,
    format: f.extension,
    animated: f.animated,
  }));
}

/** Content types browsers show as they are (Zulip's INLINE_MIME_TYPES); only these are served inline. */
export const INLINE_MIME_TYPES: ReadonlySet<string> = new Set([
  'application/pdf',
  'audio/aac',
  'audio/flac',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
  'audio/webm',
  'image/apng',
  'image/avif',
  'image/gif',
  'image/jpeg',
  'image/png',
  'image/webp',
  'text/plain',
  'video/mp4',
  'video/webm',
]);

/** What the renderer needs of an uploaded image that has thumbnails. */
export interface ThumbnailedImage {
  pathId: string;
  contentType: string;
  width: number;
  height: number;
  frames: number;
  /** Names of the thumbnails made (e.g. "840x560.webp"), largest transcoded one included. */
  thumbnailNames: string[];
}

/**
 * The preview a message shows (Zulip's get_default_thumbnail_url and
 * get_transcoded_format): the first format matching the image's animation,
 * and for types browsers cannot show, the transcoded still.
 */
export function previewOf(image: ThumbnailedImage) {
  const animated = image.frames > 1;
  const format = THUMBNAIL_FORMATS.find((f) => f.animated === animated) ?? THUMBNAIL_FORMATS[0]!;
  const standard = new Set(THUMBNAIL_FORMATS.map(thumbnailFormatName));
  const transcoded = INLINE_MIME_TYPES.has(image.contentType)
    ? undefined
    : image.thumbnailNames.find((name) => !standard.has(name));
  return {
    thumbnailUrl: `/user_uploads/thumbnail/${encodePathId(image.pathId)}/${thumbnailFormatName(format)}`,
    animated: format.animated,
    width: image.width,
    height: image.height,
    contentType: image.contentType,
    transcodedImage: transcoded ?? null,
  };
}

/** A path id as it appears in a URL: each part percent-encoded (file names may hold any letter). */
export function encodePathId(pathId: string): string {
  return pathId.split('/').map(encodeURIComponent).join('/');
}
