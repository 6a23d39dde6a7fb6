import { z } from 'zod';
import { ApiError, badRequest, missingArgument } from '../core/errors.js';
import { jsonTooDeep, MAX_JSON_DEPTH, tooDeepMessage } from '../shared/json-depth.js';

/**
 * Declarative, typed request parameters. Every endpoint lists its parameters
 * with one of the builders below; `parseParams` is the only code that reads
 * raw request values, so error wording ("{var_name} is not an integer"),
 * REQUEST_VARIABLE_MISSING and ignored_parameters_unsupported are uniform.
 */
/**
 * One parameter: how to parse its text, and what it is on the wire. Besides
 * the parsed value's type `T`, the type carries the wire kind `K`, whether
 * it is required `R` and its legacy names `A`, so the type checker can
 * compare a route's spec with Zulip's description (`api-link.ts`).
 */
export class Param<
  T,
  K extends string = string,
  R extends boolean = boolean,
  A extends string = string,
> {
  constructor(
    readonly kind: K,
    private readonly parser: (raw: string, name: string) => T,
    readonly required: R = true as R,
    readonly defaultValue: (() => T) | undefined = undefined,
    readonly aliases: readonly A[] = [],
    readonly jsonEncoded: boolean = false,
  ) {}

  parse(raw: string, name: string): T {
    return this.parser(raw, name);
  }

  /** Absent → undefined. */
  optional(): Param<T | undefined, K, false, A> {
    return new Param<T | undefined, K, false, A>(
      this.kind,
      this.parser,
      false,
      undefined,
      this.aliases,
      this.jsonEncoded,
    );
  }

  /** Absent → `value`. */
  default(value: T): Param<T, K, false, A> {
    return new Param<T, K, false, A>(
      this.kind,
      this.parser,
      false,
      () => value,
      this.aliases,
      this.jsonEncoded,
    );
  }

  /** Legacy names accepted for the same parameter (e.g. topic ← subject). */
  alias<const N extends string>(...names: N[]): Param<T, K, R, A | N> {
    return new Param<T, K, R, A | N>(
      this.kind,
      this.parser,
      this.required,
      this.defaultValue,
      [...this.aliases, ...names],
      this.jsonEncoded,
    );
  }

  /** Post-parse check or transformation, with the parameter's name for messages. */
  refine<U>(fn: (value: T, name: string) => U): Param<U, K, R, A> {
    const parser = this.parser;
    return new Param<U, K, R, A>(
      this.kind,
      (raw, name) => fn(parser(raw, name), name),
      this.required,
      undefined,
      this.aliases,
      this.jsonEncoded,
    );
  }
}

export type ParamShape = Record<string, Param<unknown>>;
/** A parameter whose wire kind, required-ness and aliases are those of its builder. */
type Fresh<T, K extends string> = Param<T, K, true, never>;
export type ParsedParams<S extends ParamShape> = {
  [K in keyof S]: S[K] extends Param<infer T> ? T : never;
};

/**
 * Integers, booleans, lists and dicts are JSON on the wire; Zulip reports
 * text that is not JSON at all differently from JSON of the wrong type.
 */
function parseInteger(raw: string, name: string): number {
  const text = raw.trim();
  const value = parseJson(text, name);
  // Strictly an integer literal: Python reads 1.0 or 1e3 as a float, which Zulip refuses.
  if (typeof value !== 'number' || !/^-?\d+$/.test(text) || !Number.isSafeInteger(value)) {
    throw badRequest(`${name} is not an integer`);
  }
  return value;
}

export { jsonTooDeep, MAX_JSON_DEPTH, tooDeepMessage };

function parseJson(raw: string, name: string): unknown {
  if (jsonTooDeep(raw)) throw badRequest(tooDeepMessage(name));
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
}

/**
 * A whole number written with a fraction or an exponent (1.0, 1e3). Python
 * reads it as a float, which Zulip's strict Json[int] refuses; JavaScript's
 * JSON.parse makes it an integer. JSON parameters keep such numbers apart,
 * so integer schemas refuse them as Zulip does; `jsonFloat()` takes them
 * where any number is wanted.
 */
export class FloatLiteral {
  constructor(readonly value: number) {}
}

function parseJsonKeepingFloats(raw: string, name: string): unknown {
  if (jsonTooDeep(raw)) throw badRequest(tooDeepMessage(name));
  try {
    return JSON.parse(raw, (_key, value, context?: { source?: string }) =>
      typeof value === 'number' &&
      Number.isInteger(value) &&
      context?.source !== undefined &&
      /[.eE]/.test(context.source)
        ? new FloatLiteral(value)
        : value,
    );
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
}

/** A number inside a JSON parameter, integral or not (Zulip's float). */
export const jsonFloat = () =>
  z.preprocess((v) => (v instanceof FloatLiteral ? v.value : v), z.number());

/** `name[0]["key"]`: Zulip's way of naming a value inside a JSON parameter. */
function pathName(name: string, path: readonly PropertyKey[]): string {
  let out = name;
  for (const part of path)
    out += typeof part === 'number' ? `[${part}]` : `[${JSON.stringify(String(part))}]`;
  return out;
}

const typeWords: Record<string, string> = {
  string: 'is not a string',
  number: 'is not an integer',
  int: 'is not an integer',
  boolean: 'is not a boolean',
  array: 'is not a list',
  object: 'is not a dict',
  record: 'is not a dict',
};

/** Turns the first zod issue into Zulip's wording for that kind of mistake. */
export function zodIssueMessage(name: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `Invalid ${name}`;
  const where = pathName(name, issue.path);
  if (issue.code === 'invalid_type') {
    const words = typeWords[String(issue.expected)];
    if (words) return `${where} ${words}`;
  }
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return `${where} is too long (limit: ${issue.maximum} characters)`;
  }
  if (issue.code === 'custom' && issue.message && issue.message !== 'Invalid input') {
    return issue.message.replaceAll('{var_name}', where);
  }
  if (issue.code === 'unrecognized_keys') {
    return `Argument ${pathName(name, issue.path)} has unexpected keys: ${issue.keys.join(', ')}`;
  }
  return `Invalid ${where}`;
}

export const p = {
  /** A plain (not JSON-encoded) string. */
  str(opts: { maxLength?: number } = {}): Fresh<string, 'string'> {
    return new Param('string', (raw, name) => {
      if (opts.maxLength !== undefined && [...raw].length > opts.maxLength) {
        throw badRequest(`${name} is too long (limit: ${opts.maxLength} characters)`);
      }
      return raw;
    });
  },

  /** An integer, bare ("5") or JSON-encoded (also "5"). */
  int(opts: { min?: number; max?: number } = {}): Fresh<number, 'integer'> {
    return new Param('integer', (raw, name) => {
      const value = parseInteger(raw, name);
      if (
        (opts.min !== undefined && value < opts.min) ||
        (opts.max !== undefined && value > opts.max)
      ) {
        throw badRequest(`Invalid ${name}`);
      }
      return value;
    });
  },

  /** A JSON number (Zulip's Json[float]; integers are floats too). */
  float(): Fresh<number, 'number'> {
    return new Param('number', (raw, name) => {
      const value = parseJson(raw.trim(), name);
      if (typeof value !== 'number') throw badRequest(`${name} is not a float`);
      return value;
    });
  },

  /** JSON booleans, as every Zulip client sends them. */
  bool(): Fresh<boolean, 'boolean'> {
    return new Param('boolean', (raw, name) => {
      const value = parseJson(raw.trim(), name);
      if (typeof value !== 'boolean') throw badRequest(`${name} is not a boolean`);
      return value;
    });
  },

  /** One of a fixed set of plain strings. */
  oneOf<const V extends string>(values: readonly V[]): Fresh<V, 'enum'> {
    return new Param('enum', (raw, name) => {
      if ((values as readonly string[]).includes(raw)) return raw as V;
      throw badRequest(`Invalid ${name}`);
    });
  },

  /** A JSON-encoded value checked against a zod schema. */
  json<S extends z.ZodType>(schema: S): Fresh<z.infer<S>, 'json'> {
    return new Param<z.infer<S>, 'json', true, never>(
      'json',
      (raw, name) => {
        const parsed = schema.safeParse(parseJsonKeepingFloats(raw, name));
        if (!parsed.success) throw badRequest(zodIssueMessage(name, parsed.error));
        return parsed.data;
      },
      true,
      undefined,
      [],
      true,
    );
  },

  /** Anything else: the endpoint supplies the parser (e.g. `to`, which clients send in four shapes). */
  custom<T, const K extends string = string>(
    kind: K,
    parser: (raw: string, name: string) => T,
  ): Fresh<T, K> {
    return new Param(kind, parser);
  },
};

/** Zulip's RequestConfusingParamsError: a parameter sent under two of its names. */
const confusingArguments = (first: string, second: string) =>
  new ApiError(`Can't decide between '${first}' and '${second}' arguments`, {
    code: 'REQUEST_CONFUSING_VAR',
    extra: { var_name1: first, var_name2: second },
  });

export interface ParseResult<S extends ParamShape> {
  params: ParsedParams<S>;
  ignored: string[];
}

/**
 * Reads every declared parameter from `raw` (query string, form or multipart
 * fields and path parameters merged) and lists the undeclared ones.
 */
export function parseParams<S extends ParamShape>(
  shape: S,
  raw: Map<string, string>,
  alwaysAccepted: ReadonlySet<string> = new Set(),
): ParseResult<S> {
  const params: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const [name, spec] of Object.entries(shape)) {
    let key: string | undefined;
    for (const candidate of [name, ...spec.aliases]) {
      if (!raw.has(candidate)) continue;
      if (key !== undefined) throw confusingArguments(key, candidate);
      key = candidate;
    }
    if (key === undefined) {
      if (spec.required) throw missingArgument(name);
      params[name] = spec.defaultValue ? spec.defaultValue() : undefined;
      continue;
    }
    for (const candidate of [name, ...spec.aliases]) used.add(candidate);
    try {
      params[name] = spec.parse(raw.get(key)!, name);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw badRequest(`Invalid ${name}`);
    }
  }
  const ignored = [...raw.keys()].filter((key) => !used.has(key) && !alwaysAccepted.has(key));
  return { params: params as ParsedParams<S>, ignored };
}
