/**
 * Validates HTTP response bodies against the response schemas of the Zulip
 * OpenAPI reference, as reduced by `npm run fixtures:update` into
 * test/fixtures/zulip-openapi.json (path parameter types, response schemas,
 * the component schemas they use; no documentation keys).
 *
 * The reference is OpenAPI 3.0.1, whose schema dialect is *almost* JSON Schema.
 * We convert it once to plain JSON Schema (draft-07 flavour, as understood by
 * Ajv 8) and compile per-response validators lazily:
 *
 *  - `nullable: true` becomes a `"null"` type / enum member (OpenAPI 3.0 has no
 *    `null` type);
 *  - `oneOf` becomes `anyOf` (see `convertSchema` for why);
 *  - `#/components/schemas/X` refs point into a single shared Ajv schema so that
 *    every component is compiled once.
 *
 * Reference quirks worth knowing (see openapi.test.ts):
 *  - almost no property is `required` besides `result`/`msg`/`code`, so a
 *    missing key passes unless listed in `opts.requiredKeys`;
 *  - GET/POST /navigation_views and POST /messages/flags/narrow do not allow
 *    `ignored_parameters_unsupported`; the 429 schema types `retry-after` as
 *    integer although Zulip sends a float.
 *
 * Usage in tests:
 *
 *   expectValidResponse('GET', '/users/me', res.statusCode, res.json());
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { OpenApiFixture, OpenApiOperation } from '../fixtures/types.js';

// ---------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------

export interface ValidateOptions {
  /**
   * Top-level body keys Hearth adds beyond the reference (e.g.
   * `service_feature_level`). They are removed from a shallow copy of the body
   * before validation, because the reference schemas use
   * `additionalProperties: false` and would reject them.
   */
  allowExtraKeys?: string[];
  /**
   * Top-level keys that must be present. The reference marks almost nothing
   * as `required` beyond `result`/`msg` (e.g. `zulip_version` is optional in
   * GET /server_settings), so presence checks have to be asked for explicitly.
   */
  requiredKeys?: string[];
  /**
   * Keys, at any depth, that the spec defines beyond the reference snapshot
   * (feature levels after 420, e.g. `is_imported_stub`); a key is dropped from
   * a deep copy when this returns true for it and its value.
   */
  ignoreDeep?: (key: string, value: unknown) => boolean;
}

function withoutDeep(value: unknown, ignore: (key: string, value: unknown) => boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutDeep(v, ignore));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (!ignore(k, v)) out[k] = withoutDeep(v, ignore);
  }
  return out;
}

export type ValidationResult = { ok: true } | { ok: false; errors: string };

export interface OperationMatch {
  /** Upper-case HTTP method. */
  method: string;
  /** The OpenAPI path template that matched, e.g. `/users/{user_id}`. */
  template: string;
  /** Concrete values of the template's path parameters (URI-decoded). */
  params: Record<string, string>;
}

// ---------------------------------------------------------------------------
// Loading the reference document
// ---------------------------------------------------------------------------

const FIXTURE_URL = new URL('../fixtures/zulip-openapi.json', import.meta.url);

/** `$id` of the Ajv schema that holds every converted `components/schemas` entry. */
const COMPONENTS_ID = 'zulip-openapi-components';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// Minimal structural types for the schemas we read.
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

let spec: OpenApiFixture | undefined;

function loadSpec(): OpenApiFixture {
  if (!spec) {
    const doc = JSON.parse(readFileSync(FIXTURE_URL, 'utf8')) as OpenApiFixture;
    if (!doc || typeof doc.paths !== 'object' || typeof doc.schemas !== 'object') {
      throw new Error(`${FIXTURE_URL.pathname} does not look like a reduced OpenAPI document`);
    }
    spec = doc;
  }
  return spec;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decodePointerToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

function encodePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

// ---------------------------------------------------------------------------
// OpenAPI 3.0 schema -> JSON Schema
// ---------------------------------------------------------------------------

/** Keywords that hold a single subschema. */
const SUBSCHEMA_KEYWORDS = new Set(['items', 'not', 'additionalItems', 'propertyNames']);
/** Keywords that hold an array of subschemas. */
const SUBSCHEMA_ARRAY_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf']);
/** Keywords that hold a map of name -> subschema. */
const SUBSCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties']);

/**
 * Converts one OpenAPI 3.0 schema object (recursively) to JSON Schema.
 * `knownFormat` decides whether a `format` keyword is kept (unknown formats
 * are dropped instead of making Ajv throw).
 */
function convertSchema(schema: Json, knownFormat: (name: string) => boolean): Json {
  if (!isObject(schema)) return schema; // `true`/`false` schemas, or garbage we pass through

  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key.startsWith('x-')) continue;

    if (key === '$ref') {
      out[key] = convertRef(String(value));
    } else if (key === 'format') {
      if (typeof value === 'string' && knownFormat(value)) out[key] = value;
    } else if (key === 'additionalProperties') {
      out[key] = typeof value === 'boolean' ? value : convertSchema(value, knownFormat);
    } else if (SUBSCHEMA_KEYWORDS.has(key)) {
      out[key] = convertSchema(value, knownFormat);
    } else if (SUBSCHEMA_ARRAY_KEYWORDS.has(key) && Array.isArray(value)) {
      // The reference contains generator artefacts like `anyOf: []` (e.g.
      // edit_navigation_view_request), which is invalid JSON Schema; treat an
      // empty list as absent.
      if (value.length === 0) continue;
      // oneOf -> anyOf: Zulip uses oneOf to mean "one of these shapes", not
      // "exactly one", and its variants are not always exclusive: e.g. the
      // `person` variants of `realm_user`/`update` events declare no `required`
      // keys, so `{ user_id }` matches all nine and strict oneOf would fail.
      out[key === 'oneOf' ? 'anyOf' : key] = value.map((s) => convertSchema(s, knownFormat));
    } else if (SUBSCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      const props: JsonObject = {};
      for (const [name, sub] of Object.entries(value))
        props[name] = convertSchema(sub, knownFormat);
      out[key] = props;
    } else {
      out[key] = value;
    }
  }

  return schema['nullable'] === true ? makeNullable(out) : out;
}

/**
 * Applies OpenAPI's `nullable: true` to an already converted schema.
 *
 * - with `$ref`/`allOf`/`anyOf`/`not`: wrap as `anyOf: [null, schema]`,
 *   because the referenced or combined subschemas would still reject null;
 * - otherwise add `"null"` to `type` and to `enum` (an enum without null
 *   would still reject it even when the type allows it);
 * - a bare `{ nullable: true }` (Zulip uses this inside the
 *   `additionalProperties: false` allOf member to re-declare a property of a
 *   sibling member) is already `{}`, which accepts null: nothing to do.
 */
function makeNullable(schema: JsonObject): JsonObject {
  const composite = ['$ref', 'allOf', 'anyOf', 'not'].some((k) => k in schema);
  if (composite) return { anyOf: [{ type: 'null' }, schema] };

  const result: JsonObject = { ...schema };
  const type = schema['type'];
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (!types.includes('null')) result['type'] = [...types, 'null'];
  }
  const values = schema['enum'];
  if (Array.isArray(values) && !values.includes(null)) result['enum'] = [...values, null];
  return result;
}

/** Rewrites a document-local schema `$ref` to point into the shared components schema. */
function convertRef(ref: string): string {
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) throw new Error(`Unsupported schema $ref ${ref}`);
  const name = decodePointerToken(ref.slice(prefix.length));
  return `${COMPONENTS_ID}#/definitions/${encodePointerToken(name)}`;
}

// ---------------------------------------------------------------------------
// Ajv instance (lazy)
// ---------------------------------------------------------------------------

// ajv-formats is CommonJS; depending on the loader its default export is either
// the plugin itself or a namespace object carrying it as `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

let ajv: Ajv | undefined;

function getAjv(): Ajv {
  if (ajv) return ajv;
  const instance = new Ajv({
    allErrors: true, // report every problem, not just the first
    verbose: true, // errors carry `schema` + `data`, used by focusErrors()
    strict: false, // e.g. `required` without `type: object` is common in the spec
    allowUnionTypes: true, // produced by our nullable conversion
    // Keep each component a separate function rather than inlining it at every
    // use: some (User, the ~90 event shapes, ...) are referenced many times.
    inlineRefs: false,
  });
  addFormats(instance);
  const knownFormat = (name: string) => instance.formats[name] !== undefined;

  const definitions: JsonObject = {};
  for (const [name, schema] of Object.entries(loadSpec().schemas)) {
    definitions[name] = convertSchema(schema, knownFormat);
  }
  instance.addSchema({ $id: COMPONENTS_ID, definitions });
  ajv = instance;
  return instance;
}

// ---------------------------------------------------------------------------
// Path / operation matching
// ---------------------------------------------------------------------------

interface CompiledTemplate {
  template: string;
  segments: Array<{ literal: string } | { param: string }>;
}

let templates: CompiledTemplate[] | undefined;

function getTemplates(): CompiledTemplate[] {
  templates ??= Object.keys(loadSpec().paths).map((template) => ({
    template,
    segments: splitPath(template).map((seg) => {
      const m = /^\{(.+)\}$/.exec(seg);
      return m ? { param: m[1]! } : { literal: seg };
    }),
  }));
  return templates;
}

/** Normalises a request path: strips query/fragment, an `/api/v1` prefix, and slashes. */
function splitPath(path: string): string[] {
  let p = path.replace(/[?#].*$/, '');
  p = p.replace(/^(https?:\/\/[^/]+)?\/api\/v1(?=\/|$)/, '');
  return p.split('/').filter((s) => s !== '');
}

/**
 * Finds the operation for a concrete request path (relative to /api/v1; a
 * query string and an `/api/v1` prefix are ignored). Returns null when no
 * template matches with that method.
 *
 * When several templates match, the most specific wins, comparing segment by
 * segment from the left: a literal beats an integer-typed parameter, which beats
 * any other parameter. A parameter declared `type: integer` only matches digit
 * segments, which is what separates `/users/{user_id}` from `/users/{email}`.
 */
export function findOperation(method: string, path: string): OperationMatch | null {
  const doc = loadSpec();
  const lower = method.toLowerCase();
  if (!HTTP_METHODS.includes(lower)) return null;
  const segments = splitPath(path).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });

  let best: { match: OperationMatch; score: number[] } | null = null;
  for (const { template, segments: tpl } of getTemplates()) {
    if (tpl.length !== segments.length) continue;
    const op: OpenApiOperation | undefined = doc.paths[template]![lower];
    if (!op) continue;

    const params: Record<string, string> = {};
    const score: number[] = [];
    let ok = true;
    for (let i = 0; i < tpl.length && ok; i++) {
      const seg = tpl[i]!;
      const actual = segments[i]!;
      if ('literal' in seg) {
        ok = seg.literal === actual;
        score.push(2);
      } else {
        const isInteger = op.pathParams[seg.param] === 'integer';
        ok = actual !== '' && (!isInteger || /^-?\d+$/.test(actual));
        params[seg.param] = actual;
        score.push(isInteger ? 1 : 0);
      }
    }
    if (ok && (!best || compareScores(score, best.score) > 0)) {
      best = { match: { method: lower.toUpperCase(), template, params }, score };
    }
  }
  return best?.match ?? null;
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

// ---------------------------------------------------------------------------
// Response schema lookup
// ---------------------------------------------------------------------------

/**
 * Generic Zulip error body, used for 4xx statuses an operation does not
 * document: `{ result: "error", msg: string, code: string, ...extra }`.
 * CodedErrorBase (rather than CodedError) because many errors carry extra
 * keys (`var_name`, `queue_id`, `stream`, ...).
 */
const GENERIC_ERROR_SCHEMA: JsonObject = { $ref: '#/components/schemas/CodedErrorBase' };

interface ResolvedSchema {
  cacheKey: string;
  /** Human-readable origin, used in error messages. */
  source: string;
  schema: JsonObject;
}

function resolveResponseSchema(
  method: string,
  path: string,
  status: number,
): ResolvedSchema | null {
  const match = findOperation(method, path);
  if (!match) return null;
  const { responses } = loadSpec().paths[match.template]![match.method.toLowerCase()]!;
  const key = `${match.method} ${match.template}`;

  // Exact status, then an OpenAPI range ("4XX"), then "default".
  for (const code of [String(status), `${String(status)[0]}XX`, 'default']) {
    if (!(code in responses)) continue;
    const schema = responses[code];
    // A documented status without a JSON body (e.g. a file download): nothing to check.
    if (!schema) return null;
    return { cacheKey: `${key} ${code}`, source: `${key} -> responses[${code}]`, schema };
  }

  if (status >= 400 && status < 500) {
    return {
      cacheKey: `${key} generic-4xx`,
      source: `${key} -> ${status} not documented, using CodedErrorBase`,
      schema: GENERIC_ERROR_SCHEMA,
    };
  }
  return null;
}

const validators = new Map<string, ValidateFunction>();

function getValidator(resolved: ResolvedSchema): ValidateFunction {
  let validate = validators.get(resolved.cacheKey);
  if (!validate) {
    const instance = getAjv();
    const knownFormat = (name: string) => instance.formats[name] !== undefined;
    validate = instance.compile(convertSchema(resolved.schema, knownFormat) as JsonObject);
    validators.set(resolved.cacheKey, validate);
  }
  return validate;
}

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

/** True if the reference documents a JSON body for this request + status (incl. 4xx fallback). */
export function hasResponseSchema(method: string, path: string, status: number): boolean {
  return resolveResponseSchema(method, path, status) !== null;
}

/**
 * Validates `body` against the reference's response schema. An undocumented
 * (method, path, status) is reported as a failure, so that a typo in a test
 * cannot silently pass; use `hasResponseSchema` to check beforehand.
 */
export function validateResponse(
  method: string,
  path: string,
  status: number,
  body: unknown,
  opts: ValidateOptions = {},
): ValidationResult {
  const resolved = resolveResponseSchema(method, path, status);
  if (!resolved) {
    const match = findOperation(method, path);
    const why = match
      ? `${match.method} ${match.template} documents no JSON response for status ${status}`
      : `no operation in the reference matches ${method.toUpperCase()} ${path}`;
    return { ok: false, errors: why };
  }

  let data = opts.ignoreDeep ? withoutDeep(body, opts.ignoreDeep) : body;
  if (opts.allowExtraKeys?.length && isObject(data)) {
    const copy: Record<string, unknown> = { ...data };
    for (const k of opts.allowExtraKeys) delete copy[k];
    data = copy;
  }

  const validate = getValidator(resolved);
  const lines: string[] = [];
  if (!validate(data)) lines.push(formatErrors(validate.errors ?? []));
  // Checked on the original body, so a key can be both extra and required
  // (e.g. Hearth's mandatory `service_feature_level`).
  if (isObject(body)) {
    for (const key of opts.requiredKeys ?? []) {
      if (!(key in body))
        lines.push(`  (root) must have required property '${key}' (requiredKeys)`);
    }
  }
  if (lines.length === 0) return { ok: true };
  return { ok: false, errors: `${resolved.source}:\n${lines.join('\n')}` };
}

/** Like `validateResponse`, but throws a readable Error when the body is invalid. */
export function expectValidResponse(
  method: string,
  path: string,
  status: number,
  body: unknown,
  opts: ValidateOptions = {},
): void {
  const result = validateResponse(method, path, status, body, opts);
  if (!result.ok) {
    throw new Error(
      `Response to ${method.toUpperCase()} ${path} (${status}) does not match the Zulip OpenAPI reference\n` +
        `${result.errors}\nbody: ${trimmedJson(body)}`,
    );
  }
}

// ---------------------------------------------------------------------------
// Error formatting
// ---------------------------------------------------------------------------

const MAX_ERROR_LINES = 30;
const MAX_BODY_CHARS = 2000;

/**
 * Replaces the errors of every failed `anyOf` with those of its closest
 * alternative.
 *
 * With `allErrors`, a failed union reports the errors of *every* branch, then
 * one `anyOf` error; for the ~90 event shapes of GET /events that is hundreds of
 * lines of "type must be equal to one of the allowed values". Ajv's error list
 * carries no branch boundaries, so we re-validate `err.data` against each
 * branch (`verbose: true` gives us both), which yields the same errors in the
 * same order: the block right before the `anyOf` error is exactly the
 * concatenation of the per-branch lists.
 */
function focusErrors(errors: ErrorObject[], prefix = ''): ErrorObject[] {
  const out: ErrorObject[] = [];
  let i = errors.length - 1;
  while (i >= 0) {
    const err = errors[i]!;
    const branches = err.schema;
    if (err.keyword !== 'anyOf' || !Array.isArray(branches)) {
      out.push({ ...err, instancePath: prefix + err.instancePath });
      i--;
      continue;
    }
    const instance = getAjv();
    const perBranch = branches.map((branch) => {
      const validate = instance.compile(branch as JsonObject);
      validate(err.data);
      return validate.errors ?? [];
    });
    const total = perBranch.reduce((n, list) => n + list.length, 0);
    if (total > i) {
      // Our assumption about the error layout does not hold: keep the raw errors.
      out.push(...errors.slice(0, i + 1).reverse());
      break;
    }
    const { index: best, mismatches } = closestBranch(perBranch, branches);
    const path = prefix + err.instancePath;
    const focused = focusErrors(perBranch[best]!, path);
    // With mismatches, no alternative even has the right `type`/`op`/...:
    // whichever we show is a guess.
    const closest = mismatches > 0 ? 'best guess is' : 'closest is';
    out.push(...focused.reverse(), {
      ...err,
      instancePath: path,
      message: `matches none of the ${branches.length} alternatives; ${closest} #${best}${describeBranch(branches[best])}:`,
    });
    i -= total + 1;
  }
  return out.reverse();
}

/**
 * Picks the branch the body most plausibly meant. Errors directly below the
 * union's instance on `enum`/`const` (e.g. an event's `type` or `op`), or a
 * wrong `type` of the instance itself, mean "not this kind of thing", so
 * branches with fewer of those win; ties go to the branch with fewer errors.
 * The `{ type: "null" }` branch added by `makeNullable` counts as a mismatch
 * too, so a wrongly typed nullable value is explained by its non-null shape.
 */
function closestBranch(
  perBranch: ErrorObject[][],
  branches: unknown[],
): { index: number; mismatches: number } {
  let best = { index: 0, mismatches: Infinity, errors: Infinity };
  perBranch.forEach((list, index) => {
    const branch = branches[index];
    const isNullBranch = isObject(branch) && branch['type'] === 'null';
    let mismatches = isNullBranch ? 1 : 0;
    for (const e of list) {
      const depth = e.instancePath.split('/').length - 1;
      const wrongType = e.keyword === 'type' && depth === 0;
      const wrongEnum = (e.keyword === 'enum' || e.keyword === 'const') && depth === 1;
      if (wrongType || wrongEnum) mismatches++;
    }
    if (
      mismatches < best.mismatches ||
      (mismatches === best.mismatches && list.length < best.errors)
    ) {
      best = { index, mismatches, errors: list.length };
    }
  });
  return { index: best.index, mismatches: best.mismatches };
}

/** ` (SchemaName)` for a `$ref` branch, so the closest alternative can be looked up. */
function describeBranch(branch: unknown): string {
  const ref = isObject(branch) ? branch['$ref'] : undefined;
  return typeof ref === 'string' ? ` (${decodePointerToken(ref.replace(/^.*\//, ''))})` : '';
}

/** One line per error: `<instancePath> <message> <detail>`, deduplicated and capped. */
function formatErrors(errors: ErrorObject[]): string {
  const lines = [
    ...new Set(
      focusErrors(errors).map(
        (err) => `${err.instancePath || '(root)'} ${err.message ?? err.keyword}${errorDetail(err)}`,
      ),
    ),
  ];
  const shown = lines.slice(0, MAX_ERROR_LINES).map((l) => `  ${l}`);
  if (lines.length > MAX_ERROR_LINES)
    shown.push(`  ... and ${lines.length - MAX_ERROR_LINES} more`);
  return shown.join('\n');
}

function errorDetail(err: ErrorObject): string {
  const params = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'additionalProperties':
      return `: '${String(params['additionalProperty'])}'`;
    case 'enum':
      return `: ${JSON.stringify(params['allowedValues'])}`;
    case 'const':
      return `: ${JSON.stringify(params['allowedValue'])}`;
    default:
      return '';
  }
}

function trimmedJson(body: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(body, null, 2) ?? String(body);
  } catch {
    text = String(body);
  }
  return text.length > MAX_BODY_CHARS
    ? `${text.slice(0, MAX_BODY_CHARS)}\n... (${text.length - MAX_BODY_CHARS} more chars)`
    : text;
}
