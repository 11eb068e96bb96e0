// The fast lane's body validation: the route's JSON schema compiled with ajv and the options the
// gateway gives fastify (app.ts), so a bad body gets the same 400 whichever path answered.
import { Ajv, type ValidateFunction } from 'ajv';

const ajv = new Ajv({ coerceTypes: false, removeAdditional: false, allErrors: false, allowUnionTypes: true, useDefaults: true, addUsedSchema: false });

/** fastify's shape for a failed validation: `validation` holds ajv's errors (api-errors.ts reads the first). */
export class BodyValidationError extends Error {
  readonly statusCode = 400;
  constructor(readonly validation: NonNullable<ValidateFunction['errors']>) {
    super('body does not match the schema');
  }
}

/** Throws BodyValidationError when `body` does not match. */
export function compileBodyValidator(schema: object): (body: unknown) => void {
  const validate = ajv.compile(schema);
  return (body) => {
    if (!validate(body)) throw new BodyValidationError(validate.errors ?? []);
  };
}
