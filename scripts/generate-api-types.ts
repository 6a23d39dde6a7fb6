/**
 * Generates server/shared/zulip-api/generated.ts, the TypeScript types of
 * Zulip's API (responses, request parameters, the event union), from
 *
 *  - api/zulip-openapi.yaml: Zulip's OpenAPI description, an unedited copy of
 *    the reference snapshot (feature level 420), and
 *  - api/hearth-extension.yaml: what Hearth serves beyond that snapshot (its
 *    feature level is newer): endpoints, parameters and fields, merged in by
 *    `mergeExtension` below.
 *
 * The output's header records the generator's version and both inputs'
 * sha256, as the fixtures in test/fixtures/ record theirs; a test
 * (test/api/generated-types.test.ts) fails when the checked-in output is not
 * what this script makes. Run with `npm run api:types`; never edit the output.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { parseAllDocuments, parse as parseYaml } from 'yaml';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const API_DIR = path.join(HERE, '../api');
export const DESCRIPTION_FILE = path.join(API_DIR, 'zulip-openapi.yaml');
export const EXTENSION_FILE = path.join(API_DIR, 'hearth-extension.yaml');
export const OUTPUT_FILE = path.join(HERE, '../server/shared/zulip-api/generated.ts');

type JsonObject = { [key: string]: unknown };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parameters are identified by where they go and their name. */
const parameterKey = (value: unknown): string | undefined =>
  isObject(value) && typeof value['name'] === 'string'
    ? `${String(value['in'])}:${value['name']}`
    : isObject(value) && typeof value['$ref'] === 'string'
      ? value['$ref']
      : undefined;

/**
 * The extension merged into the description: objects key by key; a
 * `parameters` list by name and place (a parameter of the same name
 * replaces the description's); `oneOf`, `anyOf` and `required` lists
 * gain the extension's entries; any other value replaces the description's.
 */
export function mergeExtension(base: unknown, extension: unknown, key = ''): unknown {
  if (isObject(base) && isObject(extension)) {
    const out: JsonObject = { ...base };
    for (const [k, v] of Object.entries(extension)) {
      out[k] = k in base ? mergeExtension(base[k], v, k) : v;
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(extension)) {
    if (key === 'parameters') {
      const out = [...base];
      for (const param of extension) {
        const at = out.findIndex((p) => parameterKey(p) === parameterKey(param));
        if (at >= 0) out[at] = param;
        else out.push(param);
      }
      return out;
    }
    if (key === 'oneOf' || key === 'anyOf' || key === 'required') {
      return [...base, ...extension.filter((e) => !base.some((b) => isEqual(b, e)))];
    }
  }
  return extension;
}

const isEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The description with the extension merged in, as the generator reads it.
 * The extension may hold several YAML documents (`---`), merged in order, so
 * that additions can go in blocks of their own at the end of the file.
 */
export function loadMergedDescription(): OpenAPI3 {
  const description = parseYaml(readFileSync(DESCRIPTION_FILE, 'utf8'));
  const documents = parseAllDocuments(readFileSync(EXTENSION_FILE, 'utf8'));
  if (!Array.isArray(documents)) return description as OpenAPI3;
  let merged: unknown = description;
  for (const document of documents) {
    if (document.errors.length > 0) throw document.errors[0];
    merged = mergeExtension(merged, document.toJS() ?? {});
  }
  return merged as OpenAPI3;
}

function generatorVersion(): string {
  const require = createRequire(import.meta.url);
  const pkg = require('openapi-typescript/package.json') as { version: string };
  return pkg.version;
}

/**
 * The description as the types are made from it. A parameter whose value is
 * JSON (`content: application/json`, e.g. GET /users' `user_ids`) gets its
 * schema as its type, as JSON-encoded form fields (`encoding`) already do;
 * openapi-typescript would type it as the encoded text.
 */
export function forTypes(description: OpenAPI3): OpenAPI3 {
  const copy = structuredClone(description) as unknown as JsonObject;
  const paths = (copy['paths'] ?? {}) as Record<string, JsonObject>;
  const parameterLists = Object.values(paths).flatMap((item) => [
    item['parameters'],
    ...Object.values(item).map((op) => (isObject(op) ? op['parameters'] : undefined)),
  ]);
  const components = copy['components'];
  if (isObject(components) && isObject(components['parameters'])) {
    parameterLists.push(Object.values(components['parameters']));
  }
  for (const list of parameterLists) {
    if (!Array.isArray(list)) continue;
    for (const param of list) {
      if (!isObject(param) || !isObject(param['content']) || 'schema' in param) continue;
      const media = Object.values(param['content'])[0];
      if (!isObject(media) || media['schema'] === undefined) continue;
      param['schema'] = media['schema'];
      delete param['content'];
    }
  }
  return copy as unknown as OpenAPI3;
}

export async function generateApiTypes(): Promise<string> {
  const descriptionText = readFileSync(DESCRIPTION_FILE, 'utf8');
  const extensionText = readFileSync(EXTENSION_FILE, 'utf8');
  const ast = await openapiTS(forTypes(loadMergedDescription()), {
    silent: true,
    // A request field with a default is optional to send; the types must say so.
    defaultNonNullable: false,
  });
  const header = [
    '/**',
    ' * Generated by scripts/generate-api-types.ts (`npm run api:types`): do not edit.',
    ` * Generator: openapi-typescript ${generatorVersion()}`,
    ` * Input: api/zulip-openapi.yaml sha256 ${sha256(descriptionText)}`,
    ` * Extension: api/hearth-extension.yaml sha256 ${sha256(extensionText)}`,
    ' */',
    '',
  ].join('\n');
  return header + astToString(ast);
}

const invokedDirectly =
  process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const text = await generateApiTypes();
  writeFileSync(OUTPUT_FILE, text);
  console.log(`wrote ${path.relative(process.cwd(), OUTPUT_FILE)} (${text.length} characters)`);
}
