const TYPES_BY_EXTENSION: Record<string, string> = {
  aac: 'audio/aac',
  avif: 'image/avif',
  bmp: 'image/bmp',
  css: 'text/css',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  flac: 'audio/flac',
  gif: 'image/gif',
  gz: 'application/gzip',
  heic: 'image/heic',
  htm: 'text/html',
  html: 'text/html',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  js: 'text/javascript',
  json: 'application/json',
  m4a: 'audio/mp4',
  md: 'text/markdown',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  ogg: 'audio/ogg',
  pdf: 'application/pdf',
  png: 'image/png',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  txt: 'text/plain',
  wav: 'audio/wav',
  webm: 'video/webm',
  webp: 'image/webp',
  xml: 'application/xml',
  zip: 'application/zip',
};

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/**
 * The type of an uploaded file part (uploads, custom emoji, avatars): what
 * the client claimed, or, when it claimed nothing useful, a guess from the
 * file name (Zulip's get_file_info). A part sent without a Content-Type (the
 * Python bindings send files so) reaches us as `text/plain`, the multipart
 * default, so plain text from a name that says otherwise counts as no claim.
 * The type decides only how a file is served and whether it is decoded as an
 * image; serving never lets a browser run it (see uploads/serve.ts).
 */
export function contentTypeOf(claimed: string, fileName: string): string {
  const type = claimed.split(';')[0]!.trim().toLowerCase();
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  const guessed = ext ? TYPES_BY_EXTENSION[ext] : undefined;
  if (type === 'text/plain' && guessed !== undefined) return guessed;
  if (MIME_TYPE.test(type) && type !== 'application/octet-stream') return type;
  return guessed ?? 'application/octet-stream';
}
