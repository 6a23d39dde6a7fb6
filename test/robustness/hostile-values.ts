/**
 * Values no well-behaved client sends, and a seeded generator so every run
 * sends the same requests (a failure names its seed and request).
 */

/** mulberry32: small, fast and good enough to pick cases. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

const nested = (depth: number, open: string, close: string, inner = '1') =>
  open.repeat(depth) + inner + close.repeat(depth);

/** Parameter values as text on the wire (form, query, multipart field). */
export const hostileTexts: readonly string[] = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\uD800',
  'x\uDFFFy\uD83D',
  'x'.repeat(30_000),
  '😀'.repeat(6_000),
  '9007199254740993',
  '-9007199254740993',
  '1e309',
  '-1e309',
  '-1',
  '0',
  '-0',
  '1.5',
  '0x10',
  'NaN',
  'Infinity',
  'null',
  'true',
  'false',
  '[]',
  '{}',
  '""',
  '"\\ud800"',
  '"\\u0000"',
  '[9007199254740993]',
  '[-1, -2]',
  '[1e309]',
  '["\\ud800"]',
  '[null]',
  '[{}]',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"a": 1, "a": 2}',
  `[${Array.from({ length: 3_000 }, (_, i) => i).join(',')}]`,
  nested(63, '[', ']'),
  nested(20_000, '[', ']'),
  nested(2_000, '{"a":', '}'),
  '[[["is", "stream"], ["channel", "x"]]]',
  '[{"operator": "\\u0000", "operand": {"x": [1]}}]',
  '{not json',
  '%00',
  '../../../etc/passwd',
  'owner@example.com',
  '<script>alert(1)</script>',
  '\r\nSet-Cookie: x=1',
];

/** Whole values for application/json bodies, as raw JSON text. */
export const hostileJsonLiterals: readonly string[] = [
  '1e309',
  '-1e309',
  '9007199254740993',
  '-1',
  '0',
  '1.5',
  'null',
  'true',
  '[]',
  '{}',
  '"\\ud800"',
  '"a\\u0000b"',
  '[1e309]',
  '["\\udfff"]',
  '{"__proto__": {"polluted": true}}',
  nested(60, '[', ']'),
  nested(60, '{"a":', '}'),
  JSON.stringify('x'.repeat(30_000)),
  `[${Array.from({ length: 3_000 }, () => '"x"').join(',')}]`,
];

/** Path segments for `:id(^\d+)` parameters (those that fail the pattern get 404). */
export const hostileNumericSegments: readonly string[] = [
  '-1',
  'abc',
  '0',
  '00001',
  '9007199254740993',
  '99999999999999999999999999',
  '1e3',
  '%00',
];

/** Path segments for free-text parameters (e-mail addresses, domains, file names). */
export const hostileTextSegments: readonly string[] = [
  'abc',
  '-1',
  '9007199254740993',
  '1e309',
  '%00',
  '%ED%A0%80',
  '%FF',
  '..%2F..%2Fetc%2Fpasswd',
  '..',
  'x'.repeat(3_000),
  'member%40example.com',
  '%F0%9F%98%80',
];
