/**
 * Zulip's check_string_is_printable: the 1-based position of the first
 * control character (Cc) or Unicode non-character, or null. (Lone
 * surrogates, Cs, cannot reach here: request text is decoded as UTF-8.)
 */
export function unprintablePosition(text: string): number | null {
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const code = chars[i]!.codePointAt(0)!;
    if (
      code < 0x20 ||
      (code >= 0x7f && code < 0xa0) ||
      (code >= 0xfdd0 && code <= 0xfdef) ||
      (code & 0xfffe) === 0xfffe
    ) {
      return i + 1;
    }
  }
  return null;
}
