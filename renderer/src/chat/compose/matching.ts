/**
 * Matching typed text against names the way Zulip's typeaheads do: case and
 * accents do not matter, a match at the start of the name beats one at the
 * start of a later word, which beats one inside a word.
 */

/** Lower case without accents ("José" is found by "jose"). */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** How well `query` matches `name`: 0 best … 2 worst; null when it does not. */
export function matchRank(name: string, query: string): number | null {
  const folded = foldForSearch(name);
  const q = foldForSearch(query);
  if (q === '') return 0;
  if (folded.startsWith(q)) return 0;
  // Word starts: after a space, underscore, hyphen or other separator.
  for (const match of folded.matchAll(/[\s_\-.>/]+/g)) {
    if (folded.startsWith(q, match.index + match[0].length)) return 1;
  }
  return folded.includes(q) ? 2 : null;
}

/** The best rank over several names of one thing (a user's name and e-mail, an emoji's aliases). */
export function bestRank(names: readonly string[], query: string): number | null {
  let best: number | null = null;
  for (const name of names) {
    const rank = matchRank(name, query);
    if (rank !== null && (best === null || rank < best)) best = rank;
  }
  return best;
}
