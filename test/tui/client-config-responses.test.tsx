// The client-config screen shows the Responses-API client with the Codex CLI config.toml block,
// after the pinned entries (it is long), the key only as a placeholder.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flat, renderApp, TEST_KEY, machinesForThisFile } from './tui-harness.tsx';

const setup = machinesForThisFile();

test('client config: the Responses client and its Codex CLI provider block', async () => {
  const m = setup();
  const app = renderApp(m.deps, { size: { columns: 110, rows: 80 } });
  await app.press('6');
  const frame = flat(await app.waitFor('Responses-API client', 'wire_api = "responses"'));
  assert.match(frame, /Base URL http:\/\/gw\.test:8080\/v1 \(must end with \/v1: the client appends \/responses\)/);
  assert.match(frame, /Codex CLI ~\/\.codex\/config\.toml/);
  assert.match(frame, /\[model_providers\.gwctl\] name = "gwctl gateway" base_url = "http:\/\/gw\.test:8080\/v1" env_key = "MSGAPI_AUTH_TOKEN"/);
  assert.ok(frame.indexOf('Pinned in client settings') < frame.indexOf('Responses-API client'), 'the long block comes after the pinned entries');
  assert.ok(app.frames.every((f) => !f.includes(TEST_KEY)), 'the key is never shown');
  app.unmount();
});
