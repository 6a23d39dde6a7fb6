/**
 * How deeply JSON text may nest: request parameters and bodies (http/) and
 * webhook payloads (integrations/) are checked before anything recursive walks them.
 */

/** Deeper than any Zulip parameter or body needs (narrows are 3 levels). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, in one
 * iterative pass that skips strings. JSON.parse itself is iterative, but
 * JSON.stringify, zod and code walking parsed values recurse, so hostile
 * nesting is refused before they see it. (Text that is not JSON may be
 * misjudged; it fails to parse anyway.)
 */
export function jsonTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) {
        i++; // a backslash escapes the next character
      } else if (c === 0x22) {
        inString = false;
      }
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export const tooDeepMessage = (what: string) =>
  `${what} is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`;
