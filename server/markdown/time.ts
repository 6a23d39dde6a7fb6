import { escapeTextStrict } from './escape.js';

/**
 * `<time:…>` accepts what people type: ISO 8601, Unix seconds, and loose
 * English dates such as "Jun 5th 2017, 10:30PM IST". Times without a zone are
 * UTC, matching Zulip. Anything we cannot read fully is reported, not guessed.
 */

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

const WEEKDAYS = new Set([
  'mon',
  'monday',
  'tue',
  'tues',
  'tuesday',
  'wed',
  'wednesday',
  'thu',
  'thur',
  'thurs',
  'thursday',
  'fri',
  'friday',
  'sat',
  'saturday',
  'sun',
  'sunday',
]);

/** Offsets in minutes east of UTC for the abbreviations people commonly type. */
const ZONES: Record<string, number> = {
  utc: 0,
  gmt: 0,
  z: 0,
  ut: 0,
  wet: 0,
  west: 60,
  bst: 60,
  cet: 60,
  cest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  ist: 330,
  pkt: 300,
  ict: 420,
  wib: 420,
  sgt: 480,
  hkt: 480,
  awst: 480,
  cst: -360,
  cdt: -300,
  jst: 540,
  kst: 540,
  acst: 570,
  aest: 600,
  aedt: 660,
  nzst: 720,
  nzdt: 780,
  hst: -600,
  akst: -540,
  akdt: -480,
  pst: -480,
  pdt: -420,
  mst: -420,
  mdt: -360,
  est: -300,
  edt: -240,
  ast: -240,
  adt: -180,
  nst: -210,
  ndt: -150,
  brt: -180,
  art: -180,
};

function parseOffset(s: string): number | null {
  const m = /^(?:utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(s);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  if (minutes > 14 * 60) return null;
  return m[1] === '-' ? -minutes : minutes;
}

function build(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  offset: number,
): Date | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s) - offset * 60_000;
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCDate() !== d) return null;
  return new Date(ms);
}

function parseIso(s: string): Date | null {
  const m =
    /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2}|[A-Za-z]{1,5})?$/.exec(
      s,
    );
  if (!m) return null;
  let offset = 0;
  if (m[7]) {
    const z = m[7].toLowerCase();
    const o = ZONES[z] ?? parseOffset(m[7]);
    if (o === null || o === undefined) return null;
    offset = o;
  }
  return build(
    Number(m[1]),
    Number(m[2]),
    Number(m[3]),
    Number(m[4] ?? 0),
    Number(m[5] ?? 0),
    Number(m[6] ?? 0),
    offset,
  );
}

function parseLoose(s: string, now: Date): Date | null {
  const tokens = s
    .replace(/(\d)(am|pm)\b/gi, '$1 $2')
    .split(/[\s,]+/)
    .filter(Boolean);
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  let hour: number | undefined;
  let minute = 0;
  let second = 0;
  let meridiem: 'am' | 'pm' | undefined;
  let offset = 0;
  const bareNumbers: number[] = [];
  for (const raw of tokens) {
    const t = raw.toLowerCase().replace(/\.$/, '');
    if (t === 'at' || t === 'on' || WEEKDAYS.has(t)) continue;
    if (t in MONTHS) {
      if (month !== undefined) return null;
      month = MONTHS[t];
      continue;
    }
    if (t === 'am' || t === 'a.m' || t === 'pm' || t === 'p.m') {
      meridiem = t.startsWith('a') ? 'am' : 'pm';
      continue;
    }
    const time = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(t);
    if (time) {
      if (hour !== undefined) return null;
      hour = Number(time[1]);
      minute = Number(time[2]);
      second = Number(time[3] ?? 0);
      continue;
    }
    const ordinal = /^(\d{1,2})(st|nd|rd|th)$/.exec(t);
    if (ordinal) {
      if (day !== undefined) return null;
      day = Number(ordinal[1]);
      continue;
    }
    if (/^\d{4}$/.test(t)) {
      if (year !== undefined) return null;
      year = Number(t);
      continue;
    }
    if (/^\d{1,2}$/.test(t)) {
      bareNumbers.push(Number(t));
      continue;
    }
    if (t in ZONES) {
      offset = ZONES[t]!;
      continue;
    }
    const off = parseOffset(t);
    if (off !== null) {
      offset = off;
      continue;
    }
    return null;
  }
  for (const n of bareNumbers) {
    if (day === undefined) day = n;
    else if (hour === undefined && meridiem) hour = n;
    else return null;
  }
  if (month === undefined && day === undefined && year === undefined && hour === undefined) {
    return null;
  }
  if (month === undefined && day !== undefined) return null;
  if (hour !== undefined && meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  return build(
    year ?? now.getUTCFullYear(),
    month ?? now.getUTCMonth() + 1,
    day ?? now.getUTCDate(),
    hour ?? 0,
    minute,
    second,
    offset,
  );
}

export function parseTime(input: string, now: Date = new Date()): Date | null {
  const s = input.trim();
  if (!s) return null;
  if (/^-?\d+(?:\.\d+)?$/.test(s)) {
    const d = new Date(Number(s) * 1000);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const d = parseIso(s) ?? parseLoose(s, now);
  return d && !Number.isNaN(d.getTime()) ? d : null;
}

function isoUtc(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function renderTime(input: string): string {
  const d = parseTime(input);
  if (!d) {
    return `<span class="timestamp-error">Invalid time format: ${escapeTextStrict(input)}</span>`;
  }
  return `<time datetime="${isoUtc(d)}">${escapeTextStrict(input)}</time>`;
}
