import tldList from 'tlds' with { type: 'json' };
import { escapeAttr, escapeTextStrict } from './escape.js';
import { quoteAll } from './hash.js';
import type { InlineMatch, InlinePattern, InlineState } from './inline.js';
import type { MarkdownUploadPreview, RenderContext } from './types.js';

/** Schemes a rendered link may use; anything else (javascript:, data:, …) stays text. */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'ftp', 'mailto', 'tel', 'sms']);

/**
 * `.py` and `.md` are real TLDs but far more often file names in chat, so
 * Zulip does not autolink them without a scheme.
 */
const TLDS = new Set(tldList.filter((t) => /^[a-z]+$/.test(t) && t !== 'py' && t !== 'md'));

/** Returns the href to emit, or null when the URL must not become a link. */
export function sanitizeUrl(raw: string, ctx: RenderContext): string | null {
  // Browsers ignore these inside URLs, so "java\tscript:" must be read as "javascript:".
  const url = raw.trim().replace(/[\u0000-\u001f\u007f]/g, '');
  if (!url || /\s/.test(url)) return null;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (scheme) {
    if (!ALLOWED_SCHEMES.has(scheme[1]!.toLowerCase())) return null;
  } else if (!/^[/#?]/.test(url)) {
    return relativeToRealm(`http://${url}`, ctx);
  }
  return relativeToRealm(url, ctx);
}

/** Links into this organisation's web app become fragment-relative, like Zulip's. */
function relativeToRealm(url: string, ctx: RenderContext): string {
  const prefix = `${ctx.realmUrl}/#`;
  if (ctx.realmUrl && url.startsWith(prefix)) return url.slice(prefix.length - 1);
  return url;
}

function noteLink(href: string, ctx: RenderContext): void {
  const r = ctx.result;
  r.hasLink = true;
  const pathId = uploadPathId(href, ctx);
  if (pathId !== null) {
    r.hasAttachment = true;
    if (!r.uploadPathIds.includes(pathId)) r.uploadPathIds.push(pathId);
  }
}

const UPLOADS = '/user_uploads/';

/**
 * The path id of a link into this organization's uploads (relative, or
 * absolute on the realm's own host), or null. Query and fragment are not part
 * of it.
 */
function uploadPathId(href: string, ctx: RenderContext): string | null {
  let path = href;
  if (ctx.realmUrl && href.startsWith(`${ctx.realmUrl}/`)) path = href.slice(ctx.realmUrl.length);
  if (!path.startsWith(UPLOADS)) return null;
  const pathId = decodePath(path.slice(UPLOADS.length).replace(/[?#].*$/s, ''));
  return pathId === '' ? null : pathId;
}

/** Upload URLs percent-encode their file names; path ids are stored decoded. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const IMAGE_EXT = /\.(?:png|jpe?g|gif|webp|bmp|tiff?)$/i;

function isImageUrl(href: string, ctx: RenderContext): boolean {
  if (href.startsWith(UPLOADS) && ctx.lookups.uploadPreview) {
    // Only uploads that decoded as images (and so have thumbnails) preview, whatever their name.
    return ctx.lookups.uploadPreview(uploadPathId(href, ctx) ?? '') !== undefined;
  }
  const path = href.replace(/[?#].*$/, '');
  if (!IMAGE_EXT.test(path)) return false;
  if (/^https?:\/\//i.test(href)) return true;
  return href.startsWith(UPLOADS);
}

/** Zulip's thumbnailed `<img>`; attributes in the order Zulip's HTML has them. */
function thumbnailImg(preview: MarkdownUploadPreview): string {
  const animated = preview.animated ? ' data-animated="true"' : '';
  const transcoded = preview.transcodedImage
    ? ` data-transcoded-image="${escapeAttr(preview.transcodedImage)}"`
    : '';
  return (
    `<img data-original-content-type="${escapeAttr(preview.contentType)}"` +
    ` data-original-dimensions="${preview.width}x${preview.height}"` +
    ` src="${escapeAttr(preview.thumbnailUrl)}"${animated}${transcoded}>`
  );
}

function addPreview(href: string, title: string | null, st: InlineState): void {
  const ctx = st.ctx;
  if (st.inQuote || ctx.options.inlineImagePreviews === false || !isImageUrl(href, ctx)) return;
  const seen = ctx.seenPreviews;
  if (seen.has(href)) return;
  seen.add(href);
  ctx.result.hasImage = true;
  const titleAttr = title ? ` title="${escapeAttr(title)}"` : '';
  let img: string;
  const upload = href.startsWith(UPLOADS)
    ? ctx.lookups.uploadPreview?.(uploadPathId(href, ctx) ?? '')
    : undefined;
  if (upload) {
    img = thumbnailImg(upload);
  } else if (href.startsWith(UPLOADS)) {
    img = `<img src="${escapeAttr(href)}">`;
  } else {
    const q = quoteAll(href);
    img = `<img data-src-fullsize="/thumbnail?url=${q}&amp;size=full" src="/thumbnail?url=${q}&amp;size=thumbnail">`;
  }
  st.previews.push(
    `<div class="message_inline_image"><a href="${escapeAttr(href)}"${titleAttr}>${img}</a></div>`,
  );
}

/** Finds the `]` closing the label that starts at `open`, honouring nesting. */
function closeBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function closeParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return i;
    } else if (c === '\n') return -1;
  }
  return -1;
}

/** `[label](url)`; reference links are deliberately unsupported, as on Zulip. */
export const markdownLinkPattern: InlinePattern = {
  name: 'link',
  trigger: '](',
  find(text, from, st, index): InlineMatch | null {
    for (let start = text.indexOf('[', from); start !== -1; start = text.indexOf('[', start + 1)) {
      const close = closeBracket(text, start);
      if (close === -1) return null;
      if (text[close + 1] !== '(') continue;
      const end = closeParen(text, close + 1);
      if (end === -1) continue;
      let target = text.slice(close + 2, end).trim();
      const titled = /^(\S+)\s+(?:"[^"]*"|'[^']*')$/.exec(target);
      if (titled) target = titled[1]!;
      if (target.startsWith('<') && target.endsWith('>')) target = target.slice(1, -1);
      const href = sanitizeUrl(target, st.ctx);
      if (href === null) continue;
      const label = text.slice(start + 1, close);
      noteLink(href, st.ctx);
      const open = `<a href="${escapeAttr(href)}">`;
      const plainLabel = label.trim() === '';
      addPreview(href, plainLabel ? null : label, st);
      const entry = plainLabel
        ? { html: `${open}${escapeTextStrict(target)}</a>` }
        : { open, inner: st.process(label, index + 1), close: '</a>' };
      return { start, end: end + 1, entry };
    }
    return null;
  },
};

const BARE_START =
  /(?<![^\s'"(,:<])(?:(?:https?|ftp):\/\/[^\s\uE000]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:[\w-]+\.)+[\w-]+(?:[:/?#][^\s\uE000]*)?)/g;
const TRAILING = '.,;:!?\'"*~>';
const MAX_PAREN_DEPTH = 6;

interface BareLink {
  end: number;
  href: string;
  display: string;
}

function trimUrl(candidate: string): string | null {
  let end = candidate.length;
  for (;;) {
    const last = candidate[end - 1];
    if (last === undefined) return null;
    if (TRAILING.includes(last)) {
      end--;
      continue;
    }
    if (last === ')') {
      const part = candidate.slice(0, end);
      const opens = part.split('(').length - 1;
      const closes = part.split(')').length - 1;
      if (closes > opens) {
        end--;
        continue;
      }
    }
    break;
  }
  const url = candidate.slice(0, end);
  // Zulip's link regex only accepts a bounded depth of balanced parentheses;
  // anything beyond that is not linked at all.
  let depth = 0;
  for (const c of url) {
    if (c === '(') {
      depth++;
      if (depth > MAX_PAREN_DEPTH) return null;
    } else if (c === ')') {
      depth--;
      if (depth < 0) return null;
    }
  }
  if (depth !== 0 || /[<>"`]/.test(url)) return null;
  return url;
}

function hostIsLinkable(host: string): boolean {
  const m = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+([a-z]+)$/i.exec(host);
  return !!m && TLDS.has(m[1]!.toLowerCase());
}

/** Recognises a bare URL, domain or e-mail address starting exactly at a regex match. */
function matchBare(m: RegExpExecArray, text: string): BareLink | null {
  const candidate = m[0];
  const start = m.index;
  if (/^(?:https?|ftp):\/\//i.test(candidate)) {
    const url = trimUrl(candidate);
    if (!url || url.length <= url.indexOf('//') + 2) return null;
    return { end: start + url.length, href: url, display: url };
  }
  const email = /^[\w.+-]+@((?:[\w-]+\.)+[\w-]+)/.exec(candidate);
  if (email) {
    let addr = email[0];
    while (addr.endsWith('.')) addr = addr.slice(0, -1);
    const next = text[start + addr.length];
    if (next !== undefined && /[\w/@-]/.test(next)) return null;
    const domain = addr.slice(addr.indexOf('@') + 1);
    if (!hostIsLinkable(domain)) return null;
    return { end: start + addr.length, href: `mailto:${addr}`, display: addr };
  }
  if (candidate.includes('@')) return null;
  const url = trimUrl(candidate);
  if (!url) return null;
  const hostEnd = url.search(/[:/?#]/);
  const host = hostEnd === -1 ? url : url.slice(0, hostEnd);
  if (!hostIsLinkable(host)) return null;
  if (hostEnd !== -1 && url[hostEnd] === ':' && !/^:\d+(?:[/?#]|$)/.test(url.slice(hostEnd))) {
    return null;
  }
  return { end: start + url.length, href: `http://${url}`, display: url };
}

export const bareLinkPattern: InlinePattern = {
  name: 'autolink',
  trigger: /[.@]|:\/\//,
  find(text, from, st) {
    BARE_START.lastIndex = from;
    for (let m = BARE_START.exec(text); m; m = BARE_START.exec(text)) {
      const link = matchBare(m, text);
      if (link) {
        const href = relativeToRealm(link.href, st.ctx);
        noteLink(href, st.ctx);
        addPreview(href, null, st);
        return {
          start: m.index,
          end: link.end,
          entry: { html: `<a href="${escapeAttr(href)}">${escapeTextStrict(link.display)}</a>` },
        };
      }
      BARE_START.lastIndex = m.index + 1;
    }
    return null;
  },
};

/** True when the text is nothing but one bare link to an image (Zulip then shows only the preview). */
export function isLoneImageLink(text: string, ctx: RenderContext): boolean {
  const t = text.trim();
  if (!t || /\s/.test(t)) return false;
  BARE_START.lastIndex = 0;
  const m = BARE_START.exec(t);
  if (m?.index !== 0) return false;
  const link = matchBare(m, t);
  if (!link || link.end !== t.length) return false;
  return isImageUrl(relativeToRealm(link.href, ctx), ctx);
}
