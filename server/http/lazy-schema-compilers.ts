import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

const require = createRequire(import.meta.url);

type Builder = (...args: unknown[]) => unknown;
type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type Factories = NonNullable<SchemaController['compilersFactory']>;

/** A compiler builder whose package is loaded when a route first asks for it. */
function loadedOnFirstUse(packageName: string): Builder {
  let build: Builder | undefined;
  return (...args) => {
    build ??= (require(packageName) as () => Builder)();
    return build(...args);
  };
}

/**
 * Fastify's schema compilers (Ajv and fast-json-stringify), loaded only if a
 * route declares a schema. Routes here parse parameters with http/params.ts
 * and declare none, yet Fastify loads both packages at construction: about a
 * tenth of start-up.
 */
export const lazySchemaCompilers: SchemaController = {
  compilersFactory: {
    buildValidator: loadedOnFirstUse('@fastify/ajv-compiler') as Factories['buildValidator'],
    buildSerializer: loadedOnFirstUse(
      '@fastify/fast-json-stringify-compiler',
    ) as Factories['buildSerializer'],
  },
};
