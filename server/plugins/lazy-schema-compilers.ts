// fastify compiles every route's schemas when the route is registered: ajv validators for bodies,
// query strings and parameters, fast-json-stringify serializers for responses. For this gateway's
// routes that was more than half of what the process allocated while it started (94 MB before,
// 42 MB after, sampled with the inspector's heap profiler), and the compiled code stayed resident
// for routes an idle gateway may never serve (most are the operator API's and the web console's).
// Here each route's schemas are compiled by fastify's own compilers, with the same options, at the
// route's first request instead; from then on a request runs the compiled function through one
// extra call. A schema the compiler rejects now fails its route's first request (500) instead of
// the start, so a route's tests must call it.
import ValidatorSelector from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';

interface Validate {
  (data: unknown): unknown;
  errors?: unknown;
}

/** `compile`, deferred: the route's validator is compiled when it first validates, then kept. */
export function lazyValidatorCompiler<T>(compile: FastifySchemaCompiler<T>): FastifySchemaCompiler<T> {
  return (route) => {
    let validate: Validate | undefined;
    // fastify reads a failed validation's errors from the function it called.
    const lazy: Validate = (data) => {
      validate ??= compile(route) as Validate;
      const result = validate(data);
      lazy.errors = validate.errors;
      return result;
    };
    return lazy as never;
  };
}

/** `compile`, deferred: the route's serializer is compiled when it first serializes, then kept. */
export function lazySerializerCompiler<T>(compile: FastifySerializerCompiler<T>): FastifySerializerCompiler<T> {
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => (serialize ??= compile(route))(data);
  };
}

type ValidatorBuilder = ReturnType<typeof ValidatorSelector>;
type SerializerBuilder = ReturnType<typeof SerializerSelector>;

/** fastify's `schemaController` option: its default compilers (and their options), compiling lazily. */
export function lazySchemaController() {
  const buildValidator = ValidatorSelector();
  const buildSerializer = SerializerSelector();
  return {
    compilersFactory: {
      buildValidator: ((externalSchemas, options) => lazyValidatorCompiler(buildValidator(externalSchemas, options) as FastifySchemaCompiler<unknown>)) as ValidatorBuilder,
      buildSerializer: ((externalSchemas, options) => lazySerializerCompiler(buildSerializer(externalSchemas, options) as FastifySerializerCompiler<unknown>)) as SerializerBuilder,
    },
  };
}
