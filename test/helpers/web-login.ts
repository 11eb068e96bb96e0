// Logs a user in to the web pages of a test gateway: the session cookie and its CSRF token, for
// calls to the pages and the JSON APIs under /web/api/.
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';

export interface WebLogin {
  cookie: string;
  csrf: string;
}

export async function webLogin(app: FastifyInstance, username: string, password = 'password-123'): Promise<WebLogin> {
  const page = await app.inject({ url: '/login' });
  const loginToken = /name="_csrf" value="([^"]+)"/.exec(page.payload)![1]!;
  const preSession = String(page.headers['set-cookie']).split(';')[0]!;
  const res = await app.inject({
    method: 'POST',
    url: '/login',
    headers: { cookie: preSession, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: loginToken, username, password, next: '/keys' }).toString(),
  });
  assert.equal(res.statusCode, 303, res.payload);
  const cookie = [res.headers['set-cookie']].flat().map(String).find((c) => c.startsWith('gw_session='))!.split(';')[0]!;
  const keys = await app.inject({ url: '/keys', headers: { cookie } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(keys.payload)![1]!;
  return { cookie, csrf };
}
