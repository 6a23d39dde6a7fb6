/**
 * Unicode emoji names, loaded once and only when an emoji typeahead or
 * picker first needs them (`server_emoji_data_url` answers
 * `{"code_to_names": {code: [canonical, ...aliases]}}`), and the emoji a
 * person used most, remembered in this browser to put them first.
 */

export type CodeToNames = Record<string, string[]>;

const loads = new Map<string, Promise<CodeToNames>>();

/** The emoji data at `url`; one request per page however many ask. A failure is retried next time. */
export function loadEmojiData(url: string, fetchImpl: typeof fetch = fetch): Promise<CodeToNames> {
  let load = loads.get(url);
  if (!load) {
    load = fetchImpl(url)
      .then(async (response) => {
        if (!response.ok)
          throw new Error(`The emoji list could not be loaded (${response.status}).`);
        const body = (await response.json()) as { code_to_names?: unknown };
        if (!body.code_to_names || typeof body.code_to_names !== 'object') {
          throw new Error('The emoji list is not in the expected shape.');
        }
        return body.code_to_names as CodeToNames;
      })
      .catch((err: unknown) => {
        loads.delete(url);
        throw err;
      });
    loads.set(url, load);
  }
  return load;
}

/** A storage that may be missing (node tests, private windows that refuse it). */
type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;
const defaultStorage = (): KeyValueStorage | null =>
  typeof localStorage === 'undefined' ? null : localStorage;

/** Where the server gives the picker's categories and skin tones (server/emoji/sprites.ts). */
export const EMOJI_PICKER_URL = '/static/generated/emoji/emoji_picker.json';

/** One category of the picker: its emoji codes in order, with the five skin-toned codes where there are. */
export interface PickerCategory {
  name: string;
  emoji: { code: string; tones: string[] | null }[];
}

const catalogs = new Map<string, Promise<PickerCategory[]>>();

/** The picker's categories; one request per page. A failure is retried next time. */
export function loadPickerCatalog(
  url: string,
  fetchImpl: typeof fetch = fetch,
): Promise<PickerCategory[]> {
  let load = catalogs.get(url);
  if (!load) {
    load = fetchImpl(url)
      .then(async (response) => {
        if (!response.ok)
          throw new Error(`The emoji list could not be loaded (${response.status}).`);
        const body = (await response.json()) as {
          categories?: { name: string; emoji: (string | [string, string[]])[] }[];
        };
        if (!Array.isArray(body.categories))
          throw new Error('The emoji list is not in the expected shape.');
        return body.categories.map((category) => ({
          name: category.name,
          emoji: category.emoji.map((entry) =>
            typeof entry === 'string'
              ? { code: entry, tones: null }
              : { code: entry[0], tones: entry[1] },
          ),
        }));
      })
      .catch((err: unknown) => {
        catalogs.delete(url);
        throw err;
      });
    catalogs.set(url, load);
  }
  return load;
}

const SKIN_TONE_KEY = 'hearth.chat.emojiSkinTone';

/** The skin tone chosen in the picker: 0 for the default yellow, 1-5 lightest to darkest. */
export function savedSkinTone(storage: KeyValueStorage | null = defaultStorage()): number {
  try {
    const tone = Number(storage?.getItem(SKIN_TONE_KEY) ?? 0);
    return Number.isInteger(tone) && tone >= 0 && tone <= 5 ? tone : 0;
  } catch {
    return 0;
  }
}

export function saveSkinTone(
  tone: number,
  storage: KeyValueStorage | null = defaultStorage(),
): void {
  try {
    storage?.setItem(SKIN_TONE_KEY, String(tone));
  } catch {
    // Forgotten next time, no more.
  }
}

const FREQUENT_KEY = 'hearth.chat.frequentEmoji';
const FREQUENT_KEPT = 24;

/** Emoji keys (see `emojiKey`), most used first. */
export function frequentEmoji(storage: KeyValueStorage | null = defaultStorage()): string[] {
  try {
    const counts = JSON.parse(storage?.getItem(FREQUENT_KEY) ?? '{}') as Record<string, number>;
    return Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .map(([key]) => key);
  } catch {
    return [];
  }
}

/** Counts one use; the least used fall off so the record stays small. */
export function noteEmojiUse(
  key: string,
  storage: KeyValueStorage | null = defaultStorage(),
): void {
  if (!storage) return;
  try {
    const counts = JSON.parse(storage.getItem(FREQUENT_KEY) ?? '{}') as Record<string, number>;
    counts[key] = (counts[key] ?? 0) + 1;
    const kept = Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, FREQUENT_KEPT);
    storage.setItem(FREQUENT_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // A full or refused storage only loses the ordering.
  }
}
