// SIGTERM while clients keep sending: requests in flight finish, new ones are turned away in shape
// (503 shutting_down, or the connection is refused once the listener is closed), the process exits 0,
// and the usage written is exactly what the clients were served: requests and tokens, to the unit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GatewayProcess, isolateClientEnvironment, parseSse } from '../helpers/gateway-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

interface Served {
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

describe('SIGTERM under load', () => {
  let gateway: GatewayProcess;
  let key: string;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    gateway = await GatewayProcess.start({ rateLimit: 0, drainMs: 60_000 });
    key = (await gateway.createKey('admin', 'sigterm')).key;
  });

  after(async () => {
    await gateway?.cleanup();
    restoreEnv?.();
  });

  test('usage after the exit equals what clients were served', async () => {
    const served: Served = { requests: 0, inputTokens: 0, outputTokens: 0 };
    const refused: string[] = [];
    let signalled = false;

    /** One request; counts what the client saw served, and how it was refused otherwise. */
    async function one(i: number): Promise<void> {
      const stream = i % 2 === 1;
      try {
        const response = await fetch(`${gateway.textUrl}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: 'demo-chat', max_tokens: 40, stream, messages: [{ role: 'user', content: `request number ${i}` }] }),
        });
        const text = await response.text();
        if (response.status === 503) {
          assert.equal(JSON.parse(text).type, 'error', text);
          refused.push('503');
          return;
        }
        assert.equal(response.status, 200, text);
        served.requests += 1;
        if (!stream) {
          const usage = JSON.parse(text).usage;
          served.inputTokens += usage.input_tokens;
          served.outputTokens += usage.output_tokens;
          return;
        }
        const events = parseSse(text).filter((e) => e.hasData).map((e) => JSON.parse(e.data));
        served.inputTokens += events.find((e) => e.type === 'message_start').message.usage.input_tokens;
        served.outputTokens += events.find((e) => e.type === 'message_delta').usage.output_tokens;
      } catch (error) {
        // After the listener closed, new connections are refused: nothing was served, nothing billed.
        assert.ok(signalled, `failed before the signal: ${(error as Error).message}`);
        refused.push('connection');
      }
    }

    const workers = Array.from({ length: 6 }, async (_, w) => {
      for (let i = w; i < 600; i += 6) {
        await one(i);
        if (refused.length > 0 && signalled) return;
      }
    });
    await waitFor(() => served.requests >= 12, { timeoutMs: 60_000, what: 'some requests served before the signal' });
    signalled = true;
    gateway.signal('SIGTERM');
    await Promise.all(workers);
    const exit = await gateway.stop('SIGTERM', 90_000);
    assert.deepEqual(exit, { code: 0, signal: null }, gateway.stderr);
    assert.ok(refused.length > 0, 'new requests were turned away after the signal');

    const report = await gateway.adminJson<{ rows: Array<{ model: string; requests: number; inputTokens: number; outputTokens: number; errors: Record<string, number> }> }>(['usage']);
    const demo = report.rows.filter((r) => r.model === 'demo-chat');
    const recorded = demo.reduce((sum, r) => ({ requests: sum.requests + r.requests, inputTokens: sum.inputTokens + r.inputTokens, outputTokens: sum.outputTokens + r.outputTokens }), { requests: 0, inputTokens: 0, outputTokens: 0 });
    assert.deepEqual(recorded, served);
  });
});
