import type { UserRow } from '../db/queries/users.js';
import { sharp } from '../shared/sharp.js';

/**
 * The picture of a user who has not uploaded one: their initials on a colour
 * that follows from their id, so people stay told apart at a glance. Made on
 * first request and kept, per user, version, name and size.
 */

const MAX_CACHED = 500;
const cache = new Map<string, Promise<Buffer>>();

/** Golden-angle hue steps spread consecutive ids around the colour wheel. */
function colourFor(userId: number): string {
  const hue = (userId * 137.508) % 360;
  const saturation = 0.55;
  const lightness = 0.45;
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const x = chroma * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = lightness - chroma / 2;
  const [r, g, b] =
    hue < 60
      ? [chroma, x, 0]
      : hue < 120
        ? [x, chroma, 0]
        : hue < 180
          ? [0, chroma, x]
          : hue < 240
            ? [0, x, chroma]
            : hue < 300
              ? [x, 0, chroma]
              : [chroma, 0, x];
  const hex = (v: number) =>
    Math.round((v + m) * 255)
      .toString(16)
      .padStart(2, '0');
  return `#${hex(r)}${hex(g)}${hex(b)}`;
}

/** First letters of the first and last words ("Ada Lovelace" → "AL"). */
export function initialsOf(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const first = (word: string | undefined) => (word ? Array.from(word)[0]! : '');
  const letters = words.length > 1 ? first(words[0]) + first(words.at(-1)) : first(words[0]);
  return letters.toLocaleUpperCase() || '?';
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function avatarSvg(userId: number, fullName: string, size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">
<rect width="100" height="100" fill="${colourFor(userId)}"/>
<text x="50" y="50" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="42" font-weight="600" fill="#ffffff">${escapeXml(initialsOf(fullName))}</text>
</svg>`;
}

export function defaultAvatarPng(user: UserRow, size: number): Promise<Buffer> {
  const key = `${user.id}:${user.avatar_version}:${size}:${user.full_name}`;
  let png = cache.get(key);
  if (!png) {
    png = sharp(Buffer.from(avatarSvg(user.id, user.full_name, size)))
      .png()
      .toBuffer();
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(key, png);
    // A failed render is not remembered.
    png.catch(() => cache.delete(key));
  }
  return png;
}
