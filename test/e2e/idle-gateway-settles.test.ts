// The built gateway gives back the young generation its start grew once it sits idle: its start
// leaves V8's new space at its largest (two 16 MiB semi-spaces), and the collections after the
// start (server/settle-after-start.ts) must shrink it well before V8's own memory reducer would
// (about 20 s after the start here). Read from the gateway's own metrics: one scrape long before
// the collections (they need seconds of quiet) and one after them.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { SETTLE_MS } from '../../server/settle-after-start.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';

const METRICS_TOKEN = 'settle-test-metrics-token-0001';
const MIB = 2 ** 20;

let gateway: GatewayProcess | undefined;

after(async () => {
  await gateway?.cleanup();
});

/** The size of V8's new space, as the gateway's metrics report it. */
async function newSpaceBytes(origin: string): Promise<number> {
  const response = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(response.status, 200, await response.clone().text());
  const line = /^gwctl_nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)$/m.exec(await response.text());
  assert.ok(line, 'the metrics report the size of the new space');
  return Number(line[1]);
}

test('an idle gateway shrinks the young generation its start grew, at the collection after the start', { timeout: 120_000 }, async () => {
  // HTTP providers as an operator's (undici is loaded at start); nothing needs to answer on their port.
  gateway = await GatewayProcess.start({
    providers: {
      providers: [
        { name: 'chat', type: 'openai', baseUrl: 'http://127.0.0.1:9/v1', models: ['chat-model'] },
        { name: 'messages', type: 'anthropic', baseUrl: 'http://127.0.0.1:9', models: ['messages-model'] },
        { name: 'gemini', type: 'gemini', baseUrl: 'http://127.0.0.1:9', models: ['gemini-model'] },
      ],
    },
    env: { GWCTL_METRICS_TOKEN: METRICS_TOKEN, NODE_ENV: 'production' },
    adminPassword: 'settle-admin-password-1',
  });
  const origin = gateway.textUrl;
  const listeningAt = Date.now();

  const grown = await newSpaceBytes(origin);
  assert.ok(grown >= 8 * MIB, `the start grows the new space (this test's premise): ${(grown / MIB).toFixed(1)} MiB`);

  // The collection comes SETTLE_MS after the listeners opened; V8's own memory reducer not before
  // about 20 s. Nothing else may touch the gateway meanwhile: an open response skips the collection.
  await sleep(listeningAt + SETTLE_MS + 4_000 - Date.now());
  const settled = await newSpaceBytes(origin);
  assert.ok(settled <= 4 * MIB, `the new space shrank from ${(grown / MIB).toFixed(1)} MiB at the collection after the start; it is ${(settled / MIB).toFixed(1)} MiB`);
});
