// Request validation of the operator API. Query strings and path parameters arrive as text, so they
// are coerced to the schema's types (`?limit=3` is the integer 3); bodies are JSON and keep their types
// (a string where a number belongs stays an error). The gateway's other routes keep fastify's default.
import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

const COMMON: Options = { removeAdditional: false, useDefaults: true, allErrors: false, allowUnionTypes: true, strict: false };

/** The two ajv instances are made at the first compile (the routes compile at their first request). */
export function adminValidatorCompiler(): FastifySchemaCompiler<unknown> {
  let text: Ajv | undefined;
  let json: Ajv | undefined;
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'querystring' || httpPart === 'params' ? (text ??= new Ajv({ ...COMMON, coerceTypes: 'array' })) : (json ??= new Ajv({ ...COMMON, coerceTypes: false }));
    return ajv.compile(schema as object) as never;
  };
}
