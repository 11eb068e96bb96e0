import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queryValue } from '../../server/query-value.ts';

const URLS = [
  '/v1beta/models/m:streamGenerateContent',
  '/m?',
  '/m?alt=sse',
  '/m?key=abc&alt=sse',
  '/m?alt',
  '/m?alt=&key=1',
  '/m?a=1&&alt=json',
  '/m?alt=s%73e',
  '/m?alt=a+b',
  '/m?altx=1&alt=2',
  '/m?alt=1&alt=2',
  '/m?=3&alt=4',
  '/m?k%65y=5',
  '/m?key=a=b',
  '/m?key=%zz',
];

test('queryValue reads a query value as URLSearchParams does, escapes and repeats included', () => {
  for (const url of URLS) {
    for (const name of ['alt', 'key']) {
      const query = url.indexOf('?');
      const expected = query === -1 ? undefined : (new URLSearchParams(url.slice(query + 1)).get(name) ?? undefined);
      assert.equal(queryValue(url, name), expected, `${name} of ${url}`);
    }
  }
});
