/**
 * Custom profile fields as the user card shows them: each field the user
 * filled in, as text (and a link where the field is one), in the
 * organization's order. Pure, unit-tested in node.
 */
import type { User } from '../data/model.js';

/** A field as `GET /realm/profile_fields` (and register's `custom_profile_fields`) gives it. */
export interface ProfileField {
  id: number;
  name: string;
  type: number;
  field_data: string;
  order: number;
}

/** One user's values (`profile_data` of `GET /users/{id}?include_custom_profile_fields=true`). */
export type ProfileData = Record<string, { value: string; rendered_value?: string }>;

export interface ProfileFieldRow {
  id: number;
  name: string;
  text: string;
  url?: string;
}

const FieldType = {
  select: 3,
  date: 4,
  url: 5,
  user: 6,
  externalAccount: 7,
} as const;

/** Zulip's built-in external accounts (DEFAULT_EXTERNAL_ACCOUNTS). */
const EXTERNAL_URLS: Record<string, string> = {
  github: 'https://github.com/%(username)s',
  twitter: 'https://x.com/%(username)s',
};

function parseData(fieldData: string): Record<string, unknown> {
  try {
    const data = JSON.parse(fieldData || '{}') as unknown;
    return data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Only web links become links: a field's value is the user's own text. */
function safeUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function describe(
  field: ProfileField,
  value: string,
  users: Map<number, User>,
): Omit<ProfileFieldRow, 'id' | 'name'> | null {
  switch (field.type) {
    case FieldType.select: {
      const option = parseData(field.field_data)[value] as { text?: string } | undefined;
      return option?.text ? { text: option.text } : null;
    }
    case FieldType.date: {
      const date = new Date(`${value}T00:00:00Z`);
      if (Number.isNaN(date.getTime())) return { text: value };
      return {
        text: date.toLocaleDateString('en-US', {
          timeZone: 'UTC',
          year: 'numeric',
          month: 'short',
          day: 'numeric',
        }),
      };
    }
    case FieldType.url:
      return { text: value, url: safeUrl(value) };
    case FieldType.user: {
      let ids: unknown;
      try {
        ids = JSON.parse(value);
      } catch {
        return null;
      }
      if (!Array.isArray(ids)) return null;
      const names = ids
        .map((id) => users.get(Number(id))?.full_name)
        .filter((name): name is string => Boolean(name));
      return names.length > 0 ? { text: names.join(', ') } : null;
    }
    case FieldType.externalAccount: {
      const data = parseData(field.field_data);
      const subtype = typeof data.subtype === 'string' ? data.subtype : '';
      const pattern =
        subtype === 'custom' && typeof data.url_pattern === 'string'
          ? data.url_pattern
          : EXTERNAL_URLS[subtype];
      const url = pattern
        ? safeUrl(pattern.replace('%(username)s', encodeURIComponent(value)))
        : undefined;
      return { text: value, url };
    }
    default:
      return { text: value };
  }
}

/** The rows of a user's card, for the fields they filled in, in the organization's order. */
export function profileFieldRows(
  fields: ProfileField[],
  data: ProfileData | undefined,
  users: Map<number, User>,
): ProfileFieldRow[] {
  if (!data) return [];
  const rows: ProfileFieldRow[] = [];
  for (const field of [...fields].sort((a, b) => a.order - b.order)) {
    const value = data[String(field.id)]?.value;
    if (value === undefined || value === null || String(value).trim() === '') continue;
    const shown = describe(field, String(value), users);
    if (shown) rows.push({ id: field.id, name: field.name, ...shown });
  }
  return rows;
}
