import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyNetworkError } from '../../../core/client/network-error.ts';

test('errors are sorted by their code, also when nested in a cause', () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });
  assert.equal(classifyNetworkError(withCode('ENOTFOUND')).kind, 'dns');
  assert.equal(classifyNetworkError(withCode('ECONNREFUSED')).kind, 'refused');
  assert.equal(classifyNetworkError(withCode('UND_ERR_CONNECT_TIMEOUT')).kind, 'connect-timeout');
  assert.equal(classifyNetworkError(withCode('UND_ERR_HEADERS_TIMEOUT')).kind, 'timeout');
  assert.equal(classifyNetworkError(withCode('CERT_HAS_EXPIRED')).kind, 'tls');
  assert.equal(classifyNetworkError(withCode('ERR_SSL_WRONG_VERSION_NUMBER')).kind, 'tls');
  assert.equal(classifyNetworkError(new Error('fetch failed', { cause: withCode('ECONNRESET') })).kind, 'reset');
  assert.equal(classifyNetworkError(Object.assign(new Error('t'), { name: 'TimeoutError' })).kind, 'timeout');
  assert.equal(classifyNetworkError(new Error('odd')).kind, 'other');
});
