/**
 * Zulip's check_string_is_printable, for names people see (topics, channel
 * names): control characters (Cc), lone surrogates (Cs) and the 66 Unicode
 * non-characters (U+FDD0–U+FDEF and the last two code points of every plane)
 * are refused. Returns the 1-based position, in characters, of the first
 * such character, or undefined.
 */
export function firstUnprintablePosition(text: string): number | undefined {
  let position = 0;
  for (const char of text) {
    position++;
    const code = char.codePointAt(0)!;
    if (
      code < 0x20 ||
      (code >= 0x7f && code < 0xa0) ||
      (code >= 0xd800 && code <= 0xdfff) ||
      (code >= 0xfdd0 && code <= 0xfdef) ||
      (code & 0xfffe) === 0xfffe
    ) {
      return position;
    }
  }
  return undefined;
}
