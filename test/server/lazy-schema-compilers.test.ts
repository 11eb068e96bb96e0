// Schemas compiled at a route's first request: nothing is compiled while routes register, each
// route's validator and serializer is compiled once, and what a request sees is what fastify's
// eager compilers give (coercion off, the failing keyword in the 400, response fields filtered).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify, { type FastifySchemaCompiler, type FastifySerializerCompiler } from 'fastify';
import { lazySchemaController, lazySerializerCompiler, lazyValidatorCompiler } from '../../server/plugins/lazy-schema-compilers.ts';

test('a route validator is compiled at its first call, once, and passes on its errors', () => {
  let compiled = 0;
  const eager = (() => {
    compiled += 1;
    const validate = (data: unknown) => {
      validate.errors = data === 1 ? null : [{ keyword: 'const' }];
      return data === 1;
    };
    validate.errors = null as null | object[];
    return validate;
  }) as unknown as FastifySchemaCompiler<unknown>;
  const validate = lazyValidatorCompiler(eager)({ schema: { const: 1 }, method: 'POST', url: '/', httpPart: 'body' }) as unknown as ((d: unknown) => boolean) & { errors?: unknown };
  assert.equal(compiled, 0);
  assert.equal(validate(2), false);
  assert.deepEqual(validate.errors, [{ keyword: 'const' }]);
  assert.equal(validate(1), true);
  assert.equal(validate.errors, null);
  assert.equal(compiled, 1);
});

test('a route serializer is compiled at its first call, once', () => {
  let compiled = 0;
  const eager: FastifySerializerCompiler<unknown> = () => {
    compiled += 1;
    return (data) => JSON.stringify(data);
  };
  const serialize = lazySerializerCompiler(eager)({ schema: {}, method: 'GET', url: '/', httpStatus: '200' });
  assert.equal(compiled, 0);
  assert.equal(serialize({ a: 1 }), '{"a":1}');
  assert.equal(serialize({ a: 2 }), '{"a":2}');
  assert.equal(compiled, 1);
});

test('fastify with the lazy schema controller validates and serializes as with its defaults', async () => {
  const options = { ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false, allowUnionTypes: true } } };
  const body = { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } };
  const response = { 200: { type: 'object', properties: { n: { type: 'integer' } } } };
  const answers = [];
  for (const app of [Fastify({ ...options, schemaController: lazySchemaController() }), Fastify(options)]) {
    app.post('/n', { schema: { body, response } }, async (request) => ({ ...(request.body as object), secret: 'not in the schema' }));
    await app.ready();
    const ok = await app.inject({ method: 'POST', url: '/n', payload: { n: 3 } });
    const coerced = await app.inject({ method: 'POST', url: '/n', payload: { n: '3' } });
    const missing = await app.inject({ method: 'POST', url: '/n', payload: {} });
    answers.push([ok.statusCode, ok.body, coerced.statusCode, coerced.json().message, missing.statusCode, missing.json().message]);
    await app.close();
  }
  assert.deepEqual(answers[0], [200, '{"n":3}', 400, 'body/n must be integer', 400, "body must have required property 'n'"]);
  assert.deepEqual(answers[0], answers[1]);
});
