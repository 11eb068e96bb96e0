// The real Gemini CLI (pinned, from the npm registry) through the gateway's Gemini API: a one-shot
// prompt against a fresh gateway on its embedded default (the demo answers the CLI's own default
// model names), and tool round trips where the CLI runs a real tool and sends its result back: to a
// Gemini upstream (thought signatures checked, as Gemini 3 does) and to a messages upstream (the
// call and its result translated through the canonical model). Loopback only.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FakeGemini } from '../helpers/fake-gemini.ts';
import { jsonReply, sseReply, FakeUpstream, type RecordedRequest } from '../helpers/fake-upstream.ts';
import { GatewayProcess } from '../helpers/gateway-process.ts';
import { GEMINI_CLI, installRealClient, runGemini, tempHome, type RunResult } from '../helpers/real-clients.ts';
import { messagesFrames } from '../helpers/translation/protocol-frames.ts';

function explain(result: RunResult, gateway?: GatewayProcess): string {
  return `exit ${result.code} signal ${result.signal}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr.slice(-4000)}${gateway ? `\ngateway stderr:\n${gateway.stderr.slice(-3000)}` : ''}`;
}

describe('the real Gemini CLI through the gateway', { timeout: 900_000 }, () => {
  const cleanups: Array<() => void | Promise<void>> = [];

  before(async () => {
    await installRealClient(GEMINI_CLI);
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function gateway(providers?: unknown, env?: Record<string, string>): Promise<{ gw: GatewayProcess; key: string }> {
    const gw = await GatewayProcess.start(providers ? { providers, env } : {});
    cleanups.push(async () => {
      await gw.stop();
    });
    return { gw, key: (await gw.createKey()).key };
  }

  function gemini(url: string, key: string, prompt: string, extra: { env?: Record<string, string>; cwd?: string; home?: string } = {}): Promise<RunResult> {
    let home = extra.home;
    if (!home) {
      const made = tempHome('gwctl-gemini-gw-');
      cleanups.push(made.cleanup);
      home = made.home;
    }
    return runGemini({ home, prompt, cwd: extra.cwd, env: { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: key, ...extra.env } });
  }

  test('gemini -p "say pong" against a fresh gateway prints the demo reply (its default model names answered by the demo)', async () => {
    const { gw, key } = await gateway();
    const result = await gemini(gw.textUrl, key, 'say pong');
    assert.equal(result.code, 0, explain(result, gw));
    assert.match(result.stdout, /Demo reply to "say pong"\./, explain(result, gw));
    // Usage was recorded for the key, under the demo model that served it.
    const usage = await gw.adminJson<any>(['usage']);
    assert.ok(JSON.stringify(usage).includes('demo-chat'), JSON.stringify(usage));
    // The key never reaches the log.
    assert.ok(!gw.stderr.includes(key) && !gw.stdout.includes(key));
  });

  test('a tool round trip with a Gemini upstream: the signed call and the CLI\'s functionResponse pass through', async () => {
    const fake = await FakeGemini.start({ apiKeys: ['upstream-gemini-key'], checkThoughtSignatures: true });
    cleanups.push(() => fake.close());
    const { gw, key } = await gateway(
      { providers: [{ name: 'google', type: 'gemini', baseUrl: fake.url, apiKeyEnv: 'UP_GEMINI_KEY', models: ['gemini-3.1-pro-preview', 'gemini-3.5-flash-lite', 'gemini-3.8-flash'] }] },
      { UP_GEMINI_KEY: 'upstream-gemini-key' },
    );
    const home = tempHome('gwctl-gemini-gw-');
    cleanups.push(home.cleanup);
    const work = join(home.home, 'work');
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'marker-file.txt'), 'here');
    let turns = 0;
    fake.answerWith((request) => {
      if (!Array.isArray(request.body?.tools)) return undefined;
      turns += 1;
      const last = request.body.contents.at(-1);
      const answered = last?.parts?.some((p: any) => p.functionResponse);
      return answered ? { text: `listed: ${JSON.stringify(last.parts[0].functionResponse.response).includes('marker-file.txt') ? 'marker seen' : 'no marker'}` } : { functionCalls: [{ name: 'list_directory', args: { dir_path: work } }] };
    });
    const result = await gemini(gw.textUrl, key, 'list the files here', { home: home.home, cwd: work });
    assert.equal(result.code, 0, explain(result, gw));
    assert.match(result.stdout, /listed: marker seen/, explain(result, gw));
    assert.ok(turns >= 2, `chat turns: ${turns}`);
    // The upstream got the gateway's key, never the client's.
    for (const request of fake.requests) {
      assert.equal(request.apiKey, 'upstream-gemini-key');
      assert.ok(!request.path.includes(key));
    }
  });

  test('a tool round trip with a messages upstream: tool_use becomes a functionCall, the functionResponse a tool_result', async () => {
    const upstream = await FakeUpstream.start();
    cleanups.push(() => upstream.close());
    const home = tempHome('gwctl-gemini-gw-');
    cleanups.push(home.cleanup);
    const work = join(home.home, 'work');
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'marker-file.txt'), 'here');
    const seen: RecordedRequest[] = [];
    upstream.handle((request) => {
      const body = request.json();
      if (!Array.isArray(body.tools)) return jsonReply(200, { id: 'msg_r', type: 'message', role: 'assistant', model: 'claude-up', content: [{ type: 'text', text: '{"complexity_reasoning":"simple","complexity_score":1}' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 5, output_tokens: 5 } });
      seen.push(request);
      const last = body.messages.at(-1);
      const result = Array.isArray(last.content) ? last.content.find((b: any) => b.type === 'tool_result') : undefined;
      if (result) {
        const text = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
        return sseReply(messagesFrames('claude-up', [`listed: ${text.includes('marker-file.txt') ? 'marker seen' : 'no marker'}`], { input: 50, output: 5 }));
      }
      return sseReply(messagesFrames('claude-up', [], { input: 40, output: 9 }, { tools: [{ id: 'toolu_01', name: 'list_directory', pieces: [`{"dir_path":${JSON.stringify(work)}}`] }] }));
    });
    const { gw, key } = await gateway(
      { providers: [{ name: 'claude', type: 'anthropic', baseUrl: upstream.url, models: [{ name: 'claude-up', upstreamModel: 'claude-up' }] }], aliases: [{ name: 'gemini-*', model: 'claude-up' }] },
    );
    const result = await gemini(gw.textUrl, key, 'list the files here', { home: home.home, cwd: work });
    assert.equal(result.code, 0, explain(result, gw));
    assert.match(result.stdout, /listed: marker seen/, explain(result, gw));
    const second = seen.at(-1)!.json();
    const call = second.messages.find((m: any) => m.role === 'assistant').content.find((b: any) => b.type === 'tool_use');
    assert.equal(call.name, 'list_directory');
    const answer = second.messages.at(-1).content.find((b: any) => b.type === 'tool_result');
    assert.equal(answer.tool_use_id, call.id);
  });
});
