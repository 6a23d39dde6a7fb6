/**
 * Byte ranges of served files (RFC 9110 §14): media players (iOS's in
 * particular) fetch video and audio in pieces and will not play a file whose
 * server cannot answer a range. One range per request; a list of ranges gets
 * the whole file, which the RFC allows.
 */
export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

export function parseByteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    // "-N": the last N bytes.
    const length = Number(m[2]);
    if (length === 0) return 'unsatisfiable';
    return { start: Math.max(size - length, 0), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
