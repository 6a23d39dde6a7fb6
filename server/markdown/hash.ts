/**
 * Zulip's narrow URLs encode each hash component like Python's
 * `quote(s, safe="")`, then turn "." into "%2E" and finally "%" into "."
 * so the fragment survives clients that decode it once.
 */
function pyQuote(s: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(s);
  } catch {
    // Lone surrogates cannot be UTF-8 encoded; drop them like a lossy decoder would.
    encoded = encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
  return encoded.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function encodeHashComponent(s: string): string {
  return pyQuote(s).replace(/\./g, '%2E').replace(/%/g, '.');
}

export function channelNarrowPath(id: number, name: string): string {
  return `/#narrow/channel/${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
}

export function topicNarrowPath(id: number, name: string, topic: string): string {
  return `${channelNarrowPath(id, name)}/topic/${encodeHashComponent(topic)}`;
}

/** Python's `quote(s, safe="")`, used for thumbnail URLs. */
export function quoteAll(s: string): string {
  return pyQuote(s);
}
