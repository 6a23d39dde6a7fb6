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

const FREQUENT_KEY = 'hearth.chat.frequentEmoji';
const FREQUENT_KEPT = 24;

/** A storage that may be missing (node tests, private windows that refuse it). */
type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;
const defaultStorage = (): KeyValueStorage | null =>
  typeof localStorage === 'undefined' ? null : localStorage;

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
