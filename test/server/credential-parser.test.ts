import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractApiKey } from '../../server/auth/credential-parser.ts';
import { GatewayError } from '../../server/errors/gateway-error.ts';

const KEY = 'sk-' + 'Ab1'.repeat(16);

function problem(authorization: string | undefined, xApiKey?: string, allowXApiKey = false): { code: string; message: string } {
  try {
    extractApiKey({ authorization, xApiKey, allowXApiKey });
  } catch (error) {
    assert.ok(error instanceof GatewayError);
    assert.equal(error.status, 401);
    return { code: error.code, message: error.message };
  }
  assert.fail('expected a 401');
}

test('accepts Bearer keys (scheme case-insensitive) and x-api-key where allowed', () => {
  assert.equal(extractApiKey({ authorization: `Bearer ${KEY}`, allowXApiKey: false }), KEY);
  assert.equal(extractApiKey({ authorization: `bearer ${KEY}`, allowXApiKey: false }), KEY);
  assert.equal(extractApiKey({ xApiKey: KEY, allowXApiKey: true }), KEY);
});

const cases: Array<[string, string | undefined, string, RegExp]> = [
  ['missing header', undefined, 'missing_api_key', /No API key/],
  ['key without Bearer', KEY, 'malformed_authorization', /without the word "Bearer"/],
  ['other scheme', `Basic abc`, 'malformed_authorization', /scheme is "Basic"/],
  ['two spaces', `Bearer  ${KEY}`, 'malformed_authorization', /more than one space/],
  ['inner space', `Bearer sk-abc def`, 'malformed_api_key', /space/],
  ['typographic quotes (latin1 view of UTF-8)', `Bearer ${Buffer.from(`“${KEY}”`).toString('latin1')}`, 'malformed_api_key', /typographic quote/],
  ['typographic quotes', `Bearer “${KEY}”`, 'malformed_api_key', /quote/],
  ['straight quotes', `Bearer "${KEY}"`, 'malformed_api_key', /wrapped in quotes/],
  ['empty after Bearer', 'Bearer ', 'missing_api_key', /carries no key/],
  ['line break', `Bearer ${KEY}\nX`, 'malformed_api_key', /line break/],
];

for (const [name, header, code, message] of cases) {
  test(`401 names the form problem: ${name}`, () => {
    const result = problem(header);
    assert.equal(result.code, code);
    assert.match(result.message, message);
    assert.ok(!result.message.includes(KEY), 'the key is never echoed');
  });
}

test('x-api-key is ignored where it is not accepted', () => {
  assert.equal(problem(undefined, KEY, false).code, 'missing_api_key');
  assert.match(problem(undefined, undefined, true).message, /x-api-key/);
});
