/**
 * The link between a route and the one description of the API
 * (`shared/zulip-api/`: Zulip's OpenAPI description with Hearth's extension
 * in `api/`). Every route names the operation it serves (`api`, a path
 * template of the description, with the route's `method`), and the type
 * checker compares its parameter spec with `Params<api, method>`: each
 * parameter's name, its kind on the wire and whether it is required. A
 * difference fails `npm run typecheck` unless the route declares it, by
 * the words `LinkCheck` gives it, with its reason (`differences`).
 *
 * A parameter whose type does not say its kind or whether it is required
 * (`Param<unknown>`, built at run time) is refused too: the check would
 * be blind to it. What the type checker still cannot see (an integer
 * against Zulip's float is `number` both ways; a type cast that lies)
 * test/api/route-params.test.ts sees: it compares the same facts at run
 * time from the description itself and holds the routes' declarations to
 * exactly the differences it finds, so the declarations are one list for
 * both.
 */
import type { ApiMethod, ApiPath, Operation, Params } from '../shared/zulip-api/index.js';
import type { Param, ParamShape } from './params.js';

/** An endpoint Zulip serves under /api/v1 that the description does not describe. */
export interface Undescribed {
  readonly undescribed: string;
}
/** Not an API endpoint at all: files at the site root, browser pages, integration URLs. */
export interface OutsideApi {
  readonly outsideApi: string;
}

/** What a route is checked against: an operation of the description, or why none. */
export type ApiLink = ApiPath | Undescribed | OutsideApi;

export const undescribed = (why: string): Undescribed => ({ undescribed: why });
export const outsideApi = (why: string): OutsideApi => ({ outsideApi: why });

/**
 * A route's deliberate differences from the description, each with why:
 * `'<name> is <kind>'` (Hearth reads it as another kind: string, integer,
 * number, boolean, json, or a custom parser's), `'<name> is optional'`,
 * `'<name> is required'`, `'<name> is not in the description'`,
 * `'<name> is not declared'` (the description's parameter Hearth does not read).
 */
export type Differences = { readonly [difference: string]: string };

/** Reasons several routes share; a route's own reason is written at the route. */
export const WHY = {
  undescribed: 'Zulip serves it (zerver/urls.py); the level-420 description does not describe it',
  legacyUrl: 'a legacy Zulip URL Hearth keeps for older clients; the description omits it',
  newerPush:
    "Zulip's newer push-device registration (levels after 420); the description has the older one",
  filePart: 'a file part, which the route reads as an uploaded file, not as a parameter',
  retention:
    "'unlimited', 'realm_default' or an integer: one parser (`retention`) for Zulip's union",
  nullClears: "JSON-encoded so that null clears it, as Zulip's Json[int | None] view reads it",
  toShapes:
    "Zulip's views read `to` in four shapes (JSON list of ids or e-mails, a name, a bare id), so it is parsed as text",
  viewChecksAbsence: "Zulip's view reads it as optional and answers its own error when absent",
  mirroring:
    "Zulip's send_message_backend reads these for API super-users (mirroring); Hearth only checks them",
  notYet: 'not implemented in Hearth yet',
  spec: 'the product spec (api-spec.md) declares it, newer than the description',
  descriptionLax:
    "required by Zulip's view (a typed_endpoint parameter without a default); the description leaves `required` out",
  pathText: 'a path segment read as text: a file URL that does not match is a 404, as in Zulip',
  files: 'a file Zulip serves at the site root, outside the REST API',
  hearthOnly: "Hearth's own endpoint for its browser chat; not part of Zulip's API",
  integration: "an integration URL: its body is the tool's own payload, not API parameters",
} as const;

// ------------------------------------------------------ paths and their names

type Split<P extends string> = P extends `${infer Head}/${infer Tail}`
  ? [Head, ...Split<Tail>]
  : [P];

/** A path parameter's name in Fastify's syntax (`:id(^\\d+)`, `:id`, `*`) or the description's (`{id}`). */
type SegmentName<S extends string> = S extends `:${infer N}(${string}`
  ? N
  : S extends `:${infer N}`
    ? N
    : S extends '*'
      ? '*'
      : S extends `{${infer N}}`
        ? N
        : never;

type ShapeOfSegments<S extends string[]> = S extends [
  infer H extends string,
  ...infer T extends string[],
]
  ? `/${[SegmentName<H>] extends [never] ? H : '{}'}${ShapeOfSegments<T>}`
  : '';

/** `/messages/:id(^\\d+)` and `/messages/{message_id}` both as `//messages/{}` (names left out). */
export type PathShape<P extends string> = ShapeOfSegments<Split<P>>;

type NamesOfSegments<S extends string[]> = S extends [
  infer H extends string,
  ...infer T extends string[],
]
  ? [SegmentName<H>] extends [never]
    ? NamesOfSegments<T>
    : [SegmentName<H>, ...NamesOfSegments<T>]
  : [];

/** The description's path parameter names, mapped by position to the route's. */
type Renames<Doc extends string[], Ours extends string[]> = Doc extends [
  infer D extends string,
  ...infer DT extends string[],
]
  ? Ours extends [infer O extends string, ...infer OT extends string[]]
    ? { [K in D]: O } & Renames<DT, OT>
    : unknown
  : unknown;

type Renamed<Doc, Map> = {
  [K in keyof Doc as K extends keyof Map ? Map[K] & string : K]: Doc[K];
};

/** The description's parameters under the names the route gives them. */
export type DescribedParams<A extends ApiPath, M extends ApiMethod, Path extends string> = Renamed<
  Params<A, M>,
  Renames<NamesOfSegments<Split<A>>, NamesOfSegments<Split<Path>>>
>;

// ---------------------------------------------------------- the comparison

/** A description value's kind, as the run-time comparison words it. */
type DescribedKind<V> = unknown extends V
  ? 'any'
  : [NonNullable<V>] extends [boolean]
    ? 'boolean'
    : [NonNullable<V>] extends [number]
      ? 'integer' | 'number' // the same TypeScript type; the run-time test tells them apart
      : [NonNullable<V>] extends [string]
        ? 'string'
        : 'json';

type OurKind<K extends string> = K extends 'enum' ? 'string' : K;

type IsRequired<D, K extends keyof D> = Pick<D, K> extends Required<Pick<D, K>> ? true : false;

type KindDifference<N extends string, K extends string, V> = string extends K
  ? `${N}: give it a literal kind, so the type checker can compare it`
  : DescribedKind<V> extends 'any'
    ? never
    : OurKind<K> extends DescribedKind<V>
      ? never
      : `${N} is ${OurKind<K>}`;

type RequiredDifference<
  N extends string,
  R extends boolean,
  Theirs extends boolean,
> = boolean extends R
  ? `${N}: say in its type whether it is required, so the type checker can compare it`
  : R extends Theirs
    ? never
    : `${N} is ${R extends true ? 'required' : 'optional'}`;

type AliasesOf<S> = {
  [N in keyof S]: S[N] extends Param<unknown, string, boolean, infer A> ? A : never;
}[keyof S];

/** Every difference the type checker can see between a spec and the description's parameters. */
export type ParamDifferences<S, D> = string extends keyof S
  ? 'the parameter names are not known to the type checker (give the spec literal names)'
  :
      | {
          [N in keyof S & string]: N extends keyof D
            ? S[N] extends Param<unknown, infer K, infer R, string>
              ? KindDifference<N, K, D[N]> | RequiredDifference<N, R, IsRequired<D, N>>
              : never
            : `${N} is not in the description`;
        }[keyof S & string]
      | {
          [N in keyof D & string]: N extends keyof S
            ? never
            : string extends AliasesOf<S>
              ? never
              : N extends AliasesOf<S>
                ? never
                : `${N} is not declared`;
        }[keyof D & string];

type Lower<M extends string> = Lowercase<M> & ApiMethod;

/**
 * What a route definition must also have for its link to hold: nothing when
 * it does, else a property naming what is wrong, which the definition lacks,
 * so the type checker reports it at the route (`undeclared_differences`,
 * `path_does_not_match_api`, `no_such_operation_in_the_description`).
 */
export type LinkCheck<
  S extends ParamShape,
  M extends string,
  Path extends string,
  A extends ApiLink,
  Declared,
> = A extends ApiPath
  ? [Operation<A, Lower<M>>] extends [never]
    ? { no_such_operation_in_the_description: `${M} ${A}` }
    : string extends Path
      ? { path_does_not_match_api: 'the path must be a literal to be checked against api' }
      : PathShape<Path> extends PathShape<A>
        ? [
            Exclude<ParamDifferences<S, DescribedParams<A, Lower<M>, Path>>, keyof Declared>,
          ] extends [never]
          ? unknown
          : {
              undeclared_differences: Exclude<
                ParamDifferences<S, DescribedParams<A, Lower<M>, Path>>,
                keyof Declared
              >;
            }
        : { path_does_not_match_api: A }
  : unknown;
