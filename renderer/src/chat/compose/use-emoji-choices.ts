import { useEffect, useMemo, useState } from 'react';
import { useChat, useZulipApi } from '../data/store-context.js';
import { ZULIP_EMOJI_PATH } from '../message-actions/emoji-image.js';
import { type EmojiChoice, emojiChoices } from './autocomplete.js';
import { type CodeToNames, loadEmojiData } from './emoji-data.js';

/**
 * Every emoji the realm offers (Unicode names plus custom emoji), or null
 * while the Unicode list loads; nothing is fetched until `wanted` is true.
 */
export function useEmojiChoices(wanted: boolean): {
  choices: EmojiChoice[] | null;
  error: string | null;
} {
  const api = useZulipApi();
  const dataUrl = useChat((s) => s.realm.serverEmojiDataUrl);
  const custom = useChat((s) => s.realm.emoji);
  const [codeToNames, setCodeToNames] = useState<CodeToNames | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!wanted || codeToNames) return;
    if (!dataUrl) {
      setCodeToNames({});
      return;
    }
    let live = true;
    loadEmojiData(api.url(dataUrl)).then(
      (data) => live && setCodeToNames(data),
      (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [wanted, codeToNames, dataUrl, api]);

  const choices = useMemo(
    () =>
      codeToNames
        ? emojiChoices(
            codeToNames,
            Object.values(custom).map((e) => ({ ...e, source_url: api.url(e.source_url) })),
            api.url(ZULIP_EMOJI_PATH),
          )
        : null,
    [codeToNames, custom, api],
  );
  return { choices, error };
}
