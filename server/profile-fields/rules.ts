import { badRequest } from '../core/errors.js';
import type { Db } from '../db/open.js';
import { userById } from '../db/queries/users.js';
import {
  MAX_PROFILE_FIELD_HINT_LENGTH,
  MAX_PROFILE_FIELD_NAME_LENGTH,
  MAX_PROFILE_LONG_VALUE_LENGTH,
  MAX_PROFILE_SHORT_VALUE_LENGTH,
} from '../shared/limits.js';
import { FieldType } from './state.js';

/** field_data as received: a dict of strings or of dicts of strings (checked below). */
export type FieldData = Record<string, unknown>;

/** Zulip's built-in external accounts: a subtype supplies the label. */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; hint: string }> = {
  twitter: { name: 'Twitter username', hint: '' },
  github: { name: 'GitHub username', hint: '' },
};

const isDict = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const codePoints = (s: string) => [...s].length;

/** Zulip's check_profile_field_data: a dict whose values are strings or dicts of strings. */
export function checkFieldDataShape(raw: unknown): FieldData {
  if (!isDict(raw)) throw badRequest('field_data is not a dict');
  for (const value of Object.values(raw)) {
    const ok =
      typeof value === 'string' ||
      (isDict(value) && Object.values(value).every((v) => typeof v === 'string'));
    if (!ok) throw badRequest('field_data value is not an allowed_type');
  }
  return raw;
}

/** check_dict_only on field_data: required and optional string keys, nothing else. */
function checkKeys(
  value: unknown,
  required: string[],
  optional: string[] = [],
): Record<string, string> {
  if (!isDict(value)) throw badRequest('field_data is not a dict');
  for (const key of required) {
    if (!(key in value)) throw badRequest(`${key} key is missing from field_data`);
    const v = value[key];
    if (typeof v !== 'string') throw badRequest(`field_data["${key}"] is not a string`);
    if (v.trim() === '') throw badRequest(`field_data["${key}"] cannot be blank.`);
  }
  for (const key of optional) {
    if (key in value && typeof value[key] !== 'string') {
      throw badRequest(`field_data["${key}"] is not a string`);
    }
  }
  const extra = Object.keys(value).filter((k) => !required.includes(k) && !optional.includes(k));
  if (extra.length > 0) throw badRequest(`Unexpected arguments: ${extra.join(', ')}`);
  return value as Record<string, string>;
}

/** An absolute http(s) URL, as Django's URLValidator accepts it (roughly). */
export function isUrl(s: string): boolean {
  if (
    !/^https?:\/\/[^\s/?#]+\.[^\s/?#]+([/?#]\S*)?$/i.test(s) &&
    !/^https?:\/\/localhost(:\d+)?([/?#]\S*)?$/i.test(s)
  ) {
    return false;
  }
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}

function checkSelectData(data: FieldData): void {
  if (Object.keys(data).length < 1) throw badRequest('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, value] of Object.entries(data)) {
    if (key.trim() === '') throw badRequest("'value' cannot be blank.");
    texts.add(checkKeys(value, ['text', 'order']).text as string);
  }
  if (texts.size !== Object.keys(data).length) {
    throw badRequest('Field must not have duplicate choices.');
  }
}

function checkExternalAccountData(data: FieldData): void {
  checkKeys(data, ['subtype'], ['url_pattern']);
  const pattern = data.url_pattern;
  if (typeof pattern === 'string') {
    if (pattern.split('%(username)s').length !== 2) throw badRequest('Malformed URL pattern.');
    if (!isUrl(pattern.replace('%(username)s', 'username'))) {
      throw badRequest('field_data["url_pattern"] is not a URL');
    }
  }
  const subtype = data.subtype as string;
  if (!(subtype in DEFAULT_EXTERNAL_ACCOUNTS)) {
    if (subtype !== 'custom') throw badRequest('Invalid external account type');
    if (pattern === undefined) throw badRequest('Custom external account must define URL pattern');
  }
}

/** A type 7 field with a built-in subtype: its label and hint come from Zulip's table. */
export const isDefaultExternalField = (fieldType: number, data: FieldData): boolean =>
  fieldType === FieldType.EXTERNAL_ACCOUNT && data.subtype !== 'custom';

export interface FieldDefinition {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: FieldData;
  displayInProfileSummary: boolean;
  useForUserMatching: boolean;
}

/** Zulip's validate_custom_profile_field, in its order. */
export function checkFieldDefinition(def: FieldDefinition): void {
  if (def.fieldType === FieldType.SELECT) checkSelectData(def.fieldData);
  else if (def.fieldType === FieldType.EXTERNAL_ACCOUNT) checkExternalAccountData(def.fieldData);

  if (!isDefaultExternalField(def.fieldType, def.fieldData)) {
    if (def.name.trim() === '') throw badRequest('Label cannot be blank.');
    if (codePoints(def.hint) > MAX_PROFILE_FIELD_HINT_LENGTH) {
      throw badRequest(`hint is too long (limit: ${MAX_PROFILE_FIELD_HINT_LENGTH} characters)`);
    }
    if (codePoints(def.name) > MAX_PROFILE_FIELD_NAME_LENGTH) {
      throw badRequest(`name is too long (limit: ${MAX_PROFILE_FIELD_NAME_LENGTH} characters)`);
    }
  }

  if (!Object.values(FieldType).includes(def.fieldType as never)) {
    throw badRequest('Invalid field type.');
  }
  if (
    def.displayInProfileSummary &&
    (def.fieldType === FieldType.LONG_TEXT || def.fieldType === FieldType.USER)
  ) {
    throw badRequest('Field type not supported for display in profile summary.');
  }
  if (
    def.useForUserMatching &&
    def.fieldType !== FieldType.SHORT_TEXT &&
    def.fieldType !== FieldType.EXTERNAL_ACCOUNT
  ) {
    throw badRequest('Field type not supported for user matching.');
  }
}

/** A value as sent in `data` / `profile_data`. */
export type ProfileValueInput = string | number[] | null;

function checkString(varName: string, value: ProfileValueInput, max?: number): string {
  if (typeof value !== 'string') throw badRequest(`${varName} is not a string`);
  if (max !== undefined && codePoints(value) > max) {
    throw badRequest(`${varName} is too long (limit: ${max} characters)`);
  }
  return value;
}

/** A real calendar date written YYYY-MM-DD. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return (
    y >= 1 &&
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d
  );
}

/**
 * Zulip's validate_user_custom_profile_field: the value checked against the
 * field's type, named by the field's label; returns the text to store.
 */
export function checkValue(
  db: Db,
  field: { name: string; field_type: number; field_data: string },
  value: ProfileValueInput,
): string {
  const name = field.name;
  switch (field.field_type) {
    case FieldType.SHORT_TEXT:
    case FieldType.EXTERNAL_ACCOUNT:
    case FieldType.PRONOUNS:
      return checkString(name, value, MAX_PROFILE_SHORT_VALUE_LENGTH);
    case FieldType.LONG_TEXT:
      return checkString(name, value, MAX_PROFILE_LONG_VALUE_LENGTH);
    case FieldType.DATE: {
      const s = checkString(name, value);
      if (!isDate(s)) throw badRequest(`${name} is not a date`);
      return s;
    }
    case FieldType.URL: {
      const s = checkString(name, value);
      if (!isUrl(s)) throw badRequest(`${name} is not a URL`);
      return s;
    }
    case FieldType.SELECT: {
      const s = checkString(name, value);
      const choices = JSON.parse(field.field_data || '{}') as Record<string, unknown>;
      if (!Object.hasOwn(choices, s)) {
        throw badRequest(`'${s}' is not a valid choice for '${name}'.`);
      }
      return s;
    }
    case FieldType.USER: {
      if (!Array.isArray(value)) throw badRequest('User IDs is not a list');
      value.forEach((id, i) => {
        if (!Number.isInteger(id)) throw badRequest(`User IDs[${i}] is not an integer`);
      });
      for (const id of value) {
        const user = userById(db, id);
        if (!user) throw badRequest(`Invalid user ID: ${id}`);
        if (!user.is_active) throw badRequest(`User with ID ${id} is deactivated`);
        if (user.is_bot) throw badRequest(`User with ID ${id} is a bot`);
      }
      return JSON.stringify(value);
    }
    default:
      throw new Error(`unknown field type ${field.field_type}`);
  }
}
