/**
 * Compares each route's declared parameters (server/http/routes/) with the
 * operation Zulip's OpenAPI description gives for the same path and method,
 * Hearth's extension merged in (api/): for each parameter its name, its type
 * and whether it is required. route-params.test.ts checks the differences
 * against those the routes declare (`differences`, server/http/api-link.ts).
 */
import type { Param } from '../../server/http/params.js';
import type { Route } from '../../server/http/route.js';

type JsonObject = { [key: string]: unknown };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is compared of one parameter. */
export interface ParamFacts {
  type: string;
  required: boolean;
}

/** `GET /messages/{message_id}`, the path in the description's template syntax. */
export const routeKey = (method: string, template: string) => `${method.toUpperCase()} ${template}`;

/** Fastify's `/messages/:message_id(^\\d+)` as the description writes it. */
export function templateOf(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z_]+)(\([^)]*\))?/g, '{$1}').replace(/\*$/, '{*}');
}

/** Path templates compared without their parameters' names. */
const shapeOf = (template: string) => template.replace(/\{[^}]+\}/g, '{}');

/**
 * The type a Hearth parameter has on the wire, in the description's words:
 * `enum` is a string; `json` is any JSON-encoded value (an array, an object,
 * or a union of several types in the description).
 */
export function hearthFacts(param: Param<unknown>): ParamFacts {
  const type = param.kind === 'enum' ? 'string' : param.kind;
  return { type, required: param.required };
}

export class Description {
  private readonly byShape = new Map<string, string>();

  constructor(private readonly doc: JsonObject) {
    for (const template of Object.keys(this.paths())) this.byShape.set(shapeOf(template), template);
  }

  private paths(): Record<string, JsonObject> {
    return (this.doc['paths'] ?? {}) as Record<string, JsonObject>;
  }

  private resolve(value: unknown): JsonObject | undefined {
    if (!isObject(value)) return undefined;
    const ref = value['$ref'];
    if (typeof ref !== 'string') return value;
    let target: unknown = this.doc;
    for (const part of ref.replace(/^#\//, '').split('/')) {
      target = isObject(target) ? target[decodeURIComponent(part)] : undefined;
    }
    if (!isObject(target)) throw new Error(`dangling $ref ${ref}`);
    return this.resolve(target);
  }

  /** A schema's type in one word: `json` for arrays, objects and unions that hold one. */
  typeOf(rawSchema: unknown): string {
    const schema = this.resolve(rawSchema);
    if (!schema) return 'any';
    const union = (schema['oneOf'] ?? schema['anyOf']) as unknown[] | undefined;
    if (Array.isArray(union)) {
      const types = new Set(union.map((s) => this.typeOf(s)));
      return types.size === 1 ? [...types][0]! : 'json';
    }
    if (Array.isArray(schema['allOf'])) {
      for (const part of schema['allOf']) {
        const type = this.typeOf(part);
        if (type !== 'any') return type;
      }
      return 'any';
    }
    const type = schema['type'];
    if (type === 'array' || type === 'object') return 'json';
    return typeof type === 'string' ? type : 'any';
  }

  /** The description's path template for a route's, or undefined when it has none. */
  templateFor(template: string): string | undefined {
    if (template in this.paths()) return template;
    return this.byShape.get(shapeOf(template));
  }

  /**
   * The operation's parameters (path, query, form body), each under the name
   * the route gives it: path parameters are matched by position, since the
   * description may name them otherwise (`{stream_id}` against `{channel_id}`).
   */
  operationParams(
    method: string,
    routeTemplate: string,
    template = this.templateFor(routeTemplate),
  ): Map<string, ParamFacts> | undefined {
    if (!template) return undefined;
    const item = this.paths()[template];
    if (!item) return undefined;
    const op = this.resolve(item[method.toLowerCase()]);
    if (!op) return undefined;
    const routeNames = [...routeTemplate.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const docNames = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const out = new Map<string, ParamFacts>();
    const raw = [item['parameters'], op['parameters']].flatMap((p) => (Array.isArray(p) ? p : []));
    for (const entry of raw) {
      const param = this.resolve(entry);
      if (!param || param['in'] === 'header' || param['in'] === 'cookie') continue;
      let name = String(param['name']);
      if (param['in'] === 'path') name = routeNames[docNames.indexOf(name)] ?? name;
      const content = this.resolve(param['content']);
      const media = content ? this.resolve(Object.values(content)[0]) : undefined;
      const type = this.typeOf(media ? media['schema'] : param['schema']);
      out.set(name, { type, required: param['in'] === 'path' || param['required'] === true });
    }
    const body = this.resolve(this.resolve(op['requestBody'])?.['content']);
    const form = body
      ? this.resolve(body['application/x-www-form-urlencoded'] ?? body['multipart/form-data'])
      : undefined;
    const schema = this.resolve(form?.['schema']);
    if (schema) {
      const required = new Set((schema['required'] ?? []) as string[]);
      const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
      for (const [name, prop] of Object.entries(properties)) {
        out.set(name, { type: this.typeOf(prop), required: required.has(name) });
      }
    }
    return out;
  }
}

/**
 * One way a route's parameters differ from the description's: `what` in the
 * words a route declares it with (api-link.ts `Differences`), `detail` for
 * the reader of a failing test.
 */
export interface Difference {
  route: string;
  what: string;
  detail: string;
}

export const differenceKey = (d: Pick<Difference, 'route' | 'what'>) => `${d.route}: ${d.what}`;

/** Every route checked against the description, with its template. */
const linkedRoutes = (routes: readonly Route[]) =>
  routes.flatMap((route) =>
    typeof route.api === 'string'
      ? [{ route, api: route.api, key: routeKey(route.method, templateOf(route.path)) }]
      : [],
  );

/**
 * Every difference between the routes' parameters and the operations their
 * `api` names. Routes that name none (`undescribed`, `outsideApi`) are not
 * compared; `undescribedButDescribed` checks the first kind's claim.
 */
export function differences(routes: readonly Route[], description: Description): Difference[] {
  const out: Difference[] = [];
  for (const { route, api, key } of linkedRoutes(routes)) {
    const template = templateOf(route.path);
    const found = (what: string, detail = what) => out.push({ route: key, what, detail });
    if (shapeOf(template) !== shapeOf(api)) {
      found(`the path does not match ${api}`);
      continue;
    }
    const documented = description.operationParams(route.method, template, api);
    if (!documented) {
      found(`${route.method} ${api} is not in the description`);
      continue;
    }
    const declared = route.params as Record<string, Param<unknown>>;
    for (const [name, param] of Object.entries(declared)) {
      const ours = hearthFacts(param);
      const theirs = documented.get(name);
      if (!theirs) {
        found(`${name} is not in the description`);
        continue;
      }
      if (ours.type !== theirs.type && theirs.type !== 'any') {
        found(
          `${name} is ${ours.type}`,
          `${name} is ${ours.type}, the description's is ${theirs.type}`,
        );
      }
      if (ours.required !== theirs.required) {
        const word = (required: boolean) => (required ? 'required' : 'optional');
        found(
          `${name} is ${word(ours.required)}`,
          `${name} is ${word(ours.required)}, the description's is ${word(theirs.required)}`,
        );
      }
    }
    for (const name of documented.keys()) {
      if (!(name in declared) && !Object.values(declared).some((p) => p.aliases.includes(name))) {
        found(`${name} is not declared`, `${name} of the description is not declared`);
      }
    }
  }
  return out;
}

/** The differences the routes declare (`differences`), as `differences` words them. */
export function declaredDifferences(routes: readonly Route[]): Difference[] {
  return routes.flatMap((route) =>
    Object.entries(route.differences ?? {}).map(([what, why]) => ({
      route: routeKey(route.method, templateOf(route.path)),
      what,
      detail: why,
    })),
  );
}

/** Routes declared `undescribed` whose operation the description does describe. */
export function undescribedButDescribed(
  routes: readonly Route[],
  description: Description,
): string[] {
  return routes
    .filter((route) => typeof route.api === 'object' && 'undescribed' in route.api)
    .map((route) => ({ route, template: templateOf(route.path) }))
    .filter(({ route, template }) => description.operationParams(route.method, template))
    .map(({ route, template }) => routeKey(route.method, template));
}
