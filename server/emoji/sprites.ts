import { createRequire } from 'node:module';
import path from 'node:path';
import {
  type DatasourceEntry,
  datasourceEntries,
  isUnicodeEmojiCode,
  zulipEmojiCode,
} from '../markdown/index.js';
import { FileAnswer } from '../shared/files.js';
import { type CachedFile, cachedAnswer, cachedFile, DAILY } from './static-files.js';

/**
 * Emoji drawn from pictures rather than the computer's emoji font (which
 * kiosks, Linux machines and headless browsers often lack): Google's Noto
 * Emoji, the set Zulip uses, from the one sprite sheet emoji-datasource
 * ships for it (32 px cells; Apache License 2.0), a stylesheet placing each
 * emoji's `emoji-{code}` class (Zulip's message markup) on it, and the
 * picker's categories and skin tones. Served offline under /static; all
 * follow from the package, so each is made once per process.
 */

/** The sheet's cell: the picture and a transparent pixel on each side. */
const PICTURE_PX = 32;
const CELL_PX = PICTURE_PX + 2;
export const SPRITE_SHEET_FILE = 'sheet-google-32.png';
const SHEET_PATH = 'emoji-datasource/img/google/sheets/32.png';

/** Zulip's picker categories, in its order ("Component": skin tones and hair, not emoji to pick). */
export const PICKER_CATEGORIES = [
  'Smileys & Emotion',
  'People & Body',
  'Animals & Nature',
  'Food & Drink',
  'Activities',
  'Travel & Places',
  'Objects',
  'Symbols',
  'Flags',
] as const;

/** Skin tone modifiers, lightest first (Fitzpatrick types 1-2 to 6). */
const SKIN_TONES = ['1F3FB', '1F3FC', '1F3FD', '1F3FE', '1F3FF'];

/** Every picture on the sheet by Zulip's emoji code (skin-toned variants included). */
function sheetPositions(): Map<string, { x: number; y: number }> {
  const positions = new Map<string, { x: number; y: number }>();
  const add = (
    unified: string,
    at: { sheet_x: number; sheet_y: number; has_img_google?: boolean },
  ) => {
    if (at.has_img_google === false) return;
    const code = zulipEmojiCode(unified);
    if (!positions.has(code)) positions.set(code, { x: at.sheet_x, y: at.sheet_y });
  };
  for (const entry of datasourceEntries()) {
    add(entry.unified, entry);
    if (entry.non_qualified) add(entry.non_qualified, entry);
    for (const variation of Object.values(entry.skin_variations ?? {})) {
      add(variation.unified, variation);
    }
  }
  return positions;
}

/** Percentages of a position on the sheet: the same at any size the page draws an emoji. */
const percent = (n: number) => `${Number(n.toFixed(4))}%`;

let css: CachedFile | undefined;

/**
 * `span.emoji` (Zulip's markup: the name as text, the code points in an
 * `emoji-1f44d` class) drawn as its picture: the text hidden, the sheet
 * scaled to the element, each code's cell chosen by percentages.
 */
function spriteCssFile(): CachedFile {
  if (!css) {
    const positions = sheetPositions();
    let cells = 0;
    for (const { x, y } of positions.values()) cells = Math.max(cells, x + 1, y + 1);
    const sheetPx = cells * CELL_PX;
    const scale = (sheetPx / PICTURE_PX) * 100;
    const at = (n: number) => percent(((n * CELL_PX + 1) / (sheetPx - PICTURE_PX)) * 100);
    const lines = [
      '/* Noto Emoji by Google (Apache License 2.0), from the emoji-datasource package. */',
      // No weight of its own (:where), so each code's position below wins.
      `:where(.emoji[class*="emoji-"]){background-image:url(${SPRITE_SHEET_FILE});background-size:${percent(scale)} ${percent(scale)};background-repeat:no-repeat;background-position:200% 200%;color:transparent;overflow:hidden;white-space:nowrap;text-indent:110%}`,
    ];
    for (const [code, { x, y }] of positions) {
      lines.push(`.emoji-${code}{background-position:${at(x)} ${at(y)}}`);
    }
    css = cachedFile(`${lines.join('\n')}\n`);
  }
  return css;
}

/** GET /static/generated/emoji/google-sprite.css */
export const emojiSpriteCss = () => cachedAnswer(spriteCssFile(), 'text/css; charset=utf-8');

/** GET /static/generated/emoji/sheet-google-32.png: the file as the package ships it. */
export function emojiSpriteSheet(): FileAnswer {
  return new FileAnswer({
    body: { path: path.resolve(createRequire(import.meta.url).resolve(SHEET_PATH)) },
    contentType: 'image/png',
    cacheControl: DAILY,
  });
}

let picker: CachedFile | undefined;

/** The picker's view of one emoji: its code, and its five skin-toned codes if it has them. */
function pickerEntry(entry: DatasourceEntry): string | [string, string[]] {
  const code = zulipEmojiCode(entry.unified);
  const tones = SKIN_TONES.map((tone) => entry.skin_variations?.[tone]?.unified);
  if (tones.some((t) => t === undefined)) return code;
  return [code, tones.map((t) => zulipEmojiCode(t!))];
}

/**
 * GET /static/generated/emoji/emoji_picker.json: `{"categories": [{"name",
 * "emoji": [code | [code, [five toned codes]]]}]}`, in Zulip's category
 * order and Unicode's order within each; only emoji with a Zulip name (the
 * ones a reaction or `:name:` can carry).
 */
function pickerFile(): CachedFile {
  if (!picker) {
    const byCategory = new Map<string, DatasourceEntry[]>();
    for (const entry of datasourceEntries()) {
      if (!isUnicodeEmojiCode(zulipEmojiCode(entry.unified))) continue;
      const list = byCategory.get(entry.category) ?? [];
      list.push(entry);
      byCategory.set(entry.category, list);
    }
    const categories = PICKER_CATEGORIES.map((name) => ({
      name,
      emoji: (byCategory.get(name) ?? [])
        .sort((a, b) => a.sort_order - b.sort_order)
        .map(pickerEntry),
    }));
    picker = cachedFile(JSON.stringify({ categories }));
  }
  return picker;
}

export const emojiPickerJson = () => cachedAnswer(pickerFile(), 'application/json');
