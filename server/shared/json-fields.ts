/**
 * A success answer whose fields are already JSON text: `text` is what goes
 * between the envelope's braces after `"result":"success","msg":""`, e.g.
 * `"events":[...],"queue_id":"..."`. Lets GET /events join events serialised
 * once at delivery instead of stringifying them again on every poll.
 */
export class SerialisedFields {
  constructor(readonly text: string) {}
}

/**
 * A value already serialised as JSON, for answers assembled from parts that
 * are kept serialised (POST /register's user and channel lists) instead of
 * being rebuilt and stringified for every request. `jsonFieldsOf` writes it
 * out as is.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/** `fields` as the text between an object's braces, JsonText values written verbatim. */
export function jsonFieldsOf(fields: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    const text = value instanceof JsonText ? value.text : JSON.stringify(value);
    // As JSON.stringify does for undefined (and function) members.
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return parts.join(',');
}

const SLOT = '\u0000slot\u0000';

/**
 * `value` serialised with a gap where `key`'s value goes, as [before, after]:
 * `before + JSON.stringify(x) + after` is the JSON of `{...value, [key]: x}`.
 * The marker cannot match inside a string value, where every quote is escaped.
 */
export function jsonAround(value: object, key: string): [string, string] {
  const text = JSON.stringify({ ...value, [key]: SLOT });
  const slot = JSON.stringify(SLOT);
  const marker = `${JSON.stringify(key)}:${slot}`;
  const at = text.indexOf(marker) + marker.length - slot.length;
  return [text.slice(0, at), text.slice(at + slot.length)];
}
