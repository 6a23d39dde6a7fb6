import { createRequire } from 'node:module';
import { escapeAttr, escapeMarkup } from './escape.js';
import type { MarkdownLookups } from './types.js';

/**
 * Unicode emoji data comes from iamcal's emoji-datasource. Zulip curates its
 * own names on top of it; where Zulip's canonical name differs from iamcal's
 * short name, ZULIP_NAMES says so, and for those code points only Zulip's
 * names are accepted (as in Zulip, e.g. `:fried_egg:` is `:cooking:`).
 */

/** One emoji of emoji-datasource's emoji.json (the fields Hearth reads). */
export interface DatasourceEntry {
  name: string | null;
  unified: string;
  non_qualified?: string | null;
  short_name: string;
  short_names: string[];
  added_in: string;
  category: string;
  sort_order: number;
  sheet_x: number;
  sheet_y: number;
  has_img_google?: boolean;
  skin_variations?: Record<
    string,
    { unified: string; sheet_x: number; sheet_y: number; has_img_google?: boolean }
  >;
}

let entries: DatasourceEntry[] | undefined;

/** emoji-datasource's emoji.json, read once: names here, sprite sheet positions and the picker's order in emoji/. */
export function datasourceEntries(): readonly DatasourceEntry[] {
  entries ??= createRequire(import.meta.url)('emoji-datasource/emoji.json') as DatasourceEntry[];
  return entries;
}

/** Zulip's emoji_code for a datasource `unified` sequence: lower-case, without FE0F. */
export const zulipEmojiCode = (unified: string) => unified.toLowerCase().replace(/-fe0f/g, '');

/** code point sequence (lower-case, no FE0F) → Zulip names, canonical first. */
const ZULIP_NAMES: Record<string, string[]> = {
  '1f642': ['smile', 'slight_smile'],
  '1f604': ['big_smile'],
  '1f600': ['grinning'],
  '1f603': ['smiley'],
  '1f606': ['laughing', 'lol'],
  '1f602': ['joy', 'tears'],
  '1f923': ['rolling_on_the_floor_laughing', 'rofl'],
  '1f605': ['sweat_smile'],
  '1f609': ['wink'],
  '1f60a': ['blush'],
  '1f607': ['innocent', 'halo'],
  '1f60d': ['heart_eyes', 'in_love'],
  '1f641': ['frown', 'slight_frown'],
  '1f610': ['neutral'],
  '1f611': ['expressionless'],
  '1f615': ['confused'],
  '1f622': ['cry'],
  '1f62d': ['sob'],
  '1f914': ['thinking'],
  '2764': ['heart', 'love', 'love_you'],
  '1f4a9': ['poop', 'pile_of_poo'],
  '1f384': ['holiday_tree'],
  '2b06': ['up', 'north'],
  '2b07': ['down', 'south'],
  '2b05': ['left', 'west'],
  '27a1': ['right', 'east'],
  '2797': ['division', 'divide'],
  '1f947': ['gold', 'first_place', 'number_one'],
  '1f948': ['silver', 'second_place'],
  '1f949': ['bronze', 'third_place'],
  '1f95d': ['kiwi'],
  '1f408': ['cat', 'meow'],
  '1f415': ['dog', 'woof'],
  '1f407': ['rabbit'],
  '1f431': ['cat_face'],
  '1f436': ['dog_face'],
  '1f430': ['rabbit_face'],
  '1f44d': ['thumbs_up', '+1', 'like'],
  '1f44e': ['thumbs_down', '-1'],
  '1f6e0': ['working_on_it', 'hammer_and_wrench', 'tools'],
  '1f389': ['tada'],
  '1f419': ['octopus'],
  '1f373': ['cooking'],
  '2705': ['check'],
  '274c': ['cross_mark'],
  '1f916': ['robot'],
  '1f44f': ['clap'],
  '1f44b': ['wave'],
  '1f64f': ['pray'],
  '1f440': ['eyes'],
  '1f680': ['rocket'],
  '1f525': ['fire', 'lit', 'hot', 'flame'],
  '1f4af': ['100', 'hundred'],
  '1f44c': ['ok'],
};

interface EmojiData {
  byName: Map<string, string>;
  nameByCode: Map<string, string>;
}

let data: EmojiData | undefined;

/** Zulip's data predates Emoji 15.1; newer sequences stay plain text like on Zulip. */
const MAX_EMOJI_VERSION = 15.0;

function loadData(): EmojiData {
  if (data) return data;
  const byName = new Map<string, string>();
  const nameByCode = new Map<string, string>();
  const claimed = new Set<string>();
  for (const [code, names] of Object.entries(ZULIP_NAMES)) {
    for (const n of names) {
      byName.set(n, code);
      claimed.add(n);
    }
    nameByCode.set(code, names[0]!);
  }
  for (const e of datasourceEntries()) {
    if (Number.parseFloat(e.added_in) > MAX_EMOJI_VERSION) continue;
    if (e.short_name.startsWith('skin-tone')) continue;
    const code = zulipEmojiCode(e.unified);
    if (code in ZULIP_NAMES) continue;
    const names = e.short_names.map((n) => n.replace(/-/g, '_')).filter((n) => !claimed.has(n));
    if (names.length === 0 && e.name) names.push(e.name.toLowerCase().replace(/[^a-z0-9]+/g, '_'));
    for (const n of names) if (!byName.has(n)) byName.set(n, code);
    if (names[0]) nameByCode.set(code, names[0]);
  }
  data = { byName, nameByCode };
  return data;
}

function unicodeSpan(name: string, code: string): string {
  const label = escapeMarkup(name.replace(/_/g, ' '));
  return `<span aria-label="${label}" class="emoji emoji-${code}" role="img" title="${label}">:${escapeMarkup(name)}:</span>`;
}

/** Renders `:name:`; returns null when the name is not an emoji. */
export function renderEmojiName(name: string, lookups: MarkdownLookups): string | null {
  const realm = lookups.realmEmoji(name);
  if (realm && !realm.deactivated) {
    const title = escapeAttr(name.replace(/_/g, ' '));
    if (realm.stillUrl) {
      return `<img alt=":${escapeAttr(name)}:" class="emoji" data-animated="true" src="${escapeAttr(realm.stillUrl)}" title="${title}">`;
    }
    return `<img alt=":${escapeAttr(name)}:" class="emoji" src="${escapeAttr(realm.sourceUrl)}" title="${title}">`;
  }
  if (name === 'zulip') {
    return '<img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip">';
  }
  const code = loadData().byName.get(name);
  return code ? unicodeSpan(name, code) : null;
}

/** Renders a Unicode emoji sequence; null for sequences Zulip does not know. */
export function renderUnicodeEmoji(seq: string): string | null {
  const code = Array.from(seq.replace(/\uFE0F/g, ''), (c) =>
    c.codePointAt(0)!.toString(16).padStart(4, '0'),
  ).join('-');
  const name = loadData().nameByCode.get(code);
  return name ? unicodeSpan(name, code) : null;
}

export function isEmojiName(name: string): boolean {
  return loadData().byName.has(name);
}

/** Zulip's emoji_code (dash-separated hex code points) for a Unicode emoji name. */
export function unicodeEmojiCode(name: string): string | undefined {
  return loadData().byName.get(name);
}

export function isUnicodeEmojiCode(code: string): boolean {
  return loadData().nameByCode.has(code);
}

/**
 * Every Unicode emoji code with the names that reach it, the canonical name
 * first: what Zulip publishes as `code_to_names` (server_emoji_data_url).
 */
export function unicodeEmojiNamesByCode(): Map<string, string[]> {
  const { byName, nameByCode } = loadData();
  const names = new Map<string, string[]>();
  for (const [name, code] of byName) {
    const list = names.get(code);
    if (list) list.push(name);
    else names.set(code, [name]);
  }
  for (const [code, list] of names) {
    const canonical = nameByCode.get(code);
    const at = canonical === undefined ? -1 : list.indexOf(canonical);
    if (at > 0) list.unshift(...list.splice(at, 1));
  }
  return names;
}

/** Emoticons Zulip translates when the user enables it. */
export const EMOTICONS: Record<string, string> = {
  ':)': 'smile',
  '(:': 'smile',
  ':(': 'frown',
  '<3': 'heart',
  ':|': 'expressionless',
  ':/': 'confused',
  ':D': 'grinning',
  ';)': 'wink',
};

/** Warms the emoji tables so the first message does not pay for loading them. */
export function preloadEmoji(): void {
  loadData();
}
