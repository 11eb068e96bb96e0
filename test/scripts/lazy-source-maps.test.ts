// Which stacks bin/lazy-source-maps.js maps back to the TypeScript lines: every error of the code,
// not the connection errors node formats on its own whenever a stream is destroyed (a parse of a
// chunk's map stalls the process for tens of milliseconds and keeps megabytes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
// @ts-expect-error plain JavaScript without declarations
import { mapsStackOf } from '../../bin/lazy-source-maps.js';

const withCode = (code: string) => Object.assign(new Error('x'), { code });

test('errors of the code are mapped, file-system errors included', () => {
  for (const error of [new Error('bug'), new TypeError('bad'), withCode('ENOTDIR'), withCode('ENOENT'), withCode('EACCES'), withCode('ERR_HTTP_HEADERS_SENT'), withCode('model_not_found')]) {
    assert.equal(mapsStackOf(error), true, String((error as { code?: string }).code ?? error.name));
  }
});

test('connection errors keep their built locations', () => {
  for (const code of ['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ECONNREFUSED', 'ETIMEDOUT', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED', 'ABORT_ERR', 'UND_ERR_SOCKET', 'UND_ERR_ABORTED']) {
    assert.equal(mapsStackOf(withCode(code)), false, code);
  }
  assert.equal(mapsStackOf(new DOMException('gone', 'AbortError')), false);
  assert.equal(mapsStackOf(null), true);
});
