import { createHash } from 'node:crypto';
import { unicodeEmojiNamesByCode } from '../markdown/index.js';
import { FileAnswer } from '../shared/files.js';
import { sharp } from '../shared/sharp.js';

/**
 * Files Zulip ships under /static/generated/emoji/: the emoji data clients
 * fetch from `server_emoji_data_url`, and the image of the built-in :zulip:
 * emoji. Both follow from the code, so each is made once per process.
 */

/** The data changes only with a new Hearth release; a day's caching spares every client start. */
export const DAILY = 'public, max-age=86400';

/** A file made once per process, with the ETag of its bytes. */
export interface CachedFile {
  body: Buffer;
  etag: string;
}

const etagOf = (body: Buffer) =>
  `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;

export const cachedFile = (content: string | Buffer): CachedFile => {
  const body = typeof content === 'string' ? Buffer.from(content) : content;
  return { body, etag: etagOf(body) };
};

let emojiApi: CachedFile | undefined;

/** `{"code_to_names": {code: [canonical, ...aliases]}}`, the shape zulip-flutter and the web app parse. */
function emojiApiFile(): CachedFile {
  if (!emojiApi) {
    const codeToNames = Object.fromEntries(unicodeEmojiNamesByCode());
    emojiApi = cachedFile(JSON.stringify({ code_to_names: codeToNames }));
  }
  return emojiApi;
}

export function cachedAnswer(file: CachedFile, contentType: string): FileAnswer {
  return new FileAnswer({
    body: file.body,
    contentType,
    cacheControl: DAILY,
    headers: { ETag: file.etag },
  });
}

/** GET /static/generated/emoji/emoji_api.json */
export function emojiApiJson(): FileAnswer {
  return cachedAnswer(emojiApiFile(), 'application/json');
}

/** Hearth's own mark for :zulip: (Zulip's logo is not ours to ship): a "z" on a round badge. */
const ZULIP_EMOJI_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
<circle cx="32" cy="32" r="30" fill="#6492fe"/>
<path d="M19 18h27v6L28 41h18v6H18v-6l18-17H19z" fill="#fff"/>
</svg>`;

let zulipEmoji: Promise<CachedFile> | undefined;

/** GET /static/generated/emoji/images/emoji/unicode/zulip.png, which Markdown uses for :zulip:. */
export async function zulipEmojiPng(): Promise<FileAnswer> {
  zulipEmoji ??= sharp(Buffer.from(ZULIP_EMOJI_SVG)).png().toBuffer().then(cachedFile);
  return cachedAnswer(await zulipEmoji, 'image/png');
}
