// A client that leaves before its answer aborts the upstream call: that must not be reported as a
// failure of the gateway (no 'request failed' at error level), on the fast lane and through fastify.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { request } from 'undici';
import { buildTextApp } from '../../server/app.ts';
import { KeyAuthenticator } from '../../server/auth/key-authenticator.ts';
import type { GatewayDeps } from '../../server/gateway-deps.ts';
import { MemoryBudgetCounter } from '../../server/limits/budget-counter.ts';
import { RateLimiter } from '../../server/limits/rate-limiter.ts';
import { ModelRouter } from '../../server/providers/model-router.ts';
import { OpenAiProvider } from '../../server/providers/openai/openai-provider.ts';
import { Store } from '../../server/store/store.ts';
import { UsageMeter } from '../../server/usage/usage-meter.ts';
import { FakeUpstream, Gate, jsonReply } from '../helpers/fake-upstream.ts';

describe('a client that leaves before its answer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gwctl-client-left-'));
  const lines: Array<{ level: number; msg: string; err?: unknown }> = [];
  let store: Store;
  let router: ModelRouter;
  let upstream: FakeUpstream;
  let key: string;
  const apps: Record<'lane' | 'fastify', FastifyInstance> = {} as never;
  const gate = new Gate();

  before(async () => {
    upstream = await FakeUpstream.start();
    // The upstream answers only once the gate opens (after the test): the client leaves first.
    upstream.handle(async () => {
      await gate.promise;
      return jsonReply(200, { id: 'x', object: 'chat.completion', choices: [], usage: { prompt_tokens: 1, completion_tokens: 1 } });
    });
    store = await Store.open(`sqlite://${join(dir, 'gateway.db')}`);
    router = new ModelRouter([new OpenAiProvider({ name: 'slow', baseUrl: `${upstream.url}/v1`, timeoutMs: 60_000, routing: { retries: 0, cooldownAfterFailures: 1_000_000, cooldownMs: 1 }, models: [{ id: 'slow-chat', upstreamModel: 'slow-chat', kind: 'text', created: 0 }] })]);
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const deps: GatewayDeps = {
      store,
      authenticator: new KeyAuthenticator(store.keys, store.users, { changedElsewhere: store.database.changedElsewhere }),
      router,
      rateLimiter: new RateLimiter(0),
      budgets: new MemoryBudgetCounter(),
      usage: new UsageMeter(store.usage),
      settings: { publicUrl: 'http://gw.test', publicImageUrl: 'http://img.gw.test', bodyLimitBytes: 1024 * 1024 },
      logger: pino({ level: 'info' }, logStream),
    };
    const user = await store.users.create('leaver', 'password-123');
    key = (await store.keys.create(user.id, 'leaver-key')).key;
    apps.lane = buildTextApp(deps);
    apps.fastify = buildTextApp({ ...deps, settings: { ...deps.settings, fastLane: false } });
    await Promise.all(Object.values(apps).map((app) => app.listen({ host: '127.0.0.1', port: 0 })));
  });

  after(async () => {
    gate.open();
    await Promise.all(Object.values(apps).map((app) => app.close()));
    await router.close();
    await upstream.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const path of ['lane', 'fastify'] as const) {
    it(`${path}: the upstream call is aborted and nothing is logged as an error`, async () => {
      const port = (apps[path].server.address() as AddressInfo).port;
      const seen = upstream.requests.length;
      const leaving = new AbortController();
      const sent = request(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ model: 'slow-chat', messages: [{ role: 'user', content: 'hi' }] }),
        signal: leaving.signal,
      }).catch((error: Error) => error);
      const reached = await upstream.waitForRequests(seen + 1);
      leaving.abort();
      assert.ok((await sent) instanceof Error);
      assert.equal(await reached.ended, 'aborted-by-client');
      // The gateway aborted the upstream call from its response's close handler, and the failure it
      // caused was handled in the same turn of the event loop, before the upstream saw its socket close.
      const errors = lines.filter((l) => l.level >= 50);
      assert.deepEqual(errors.map((l) => l.msg), []);
    });
  }
});
