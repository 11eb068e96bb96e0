// The real Gemini CLI (pinned, from the npm registry) against the fake Gemini API directly, in
// gateway mode (GOOGLE_GEMINI_BASE_URL + GEMINI_API_KEY): proves the fake speaks what the CLI speaks
// and records what the CLI sends, which the gateway's Gemini routes must accept. Loopback only:
// temp HOME, telemetry, usage statistics and update checks off, no proxy variables.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { FakeGemini, type GeminiRequest } from '../helpers/fake-gemini.ts';
import { GEMINI_CLI, installRealClient, runGemini, tempHome, type GeminiRun, type RunResult } from '../helpers/real-clients.ts';

function explain(result: RunResult, fake: FakeGemini): string {
  const requests = fake.requests.map((r) => `${r.method} ${r.path}`).join('\n');
  return `exit ${result.code} signal ${result.signal}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr.slice(-4000)}\nrequests:\n${requests}`;
}

/** The CLI's chat turns (they carry its tools); its model router's classifier calls do not. */
function isChatTurn(request: GeminiRequest): boolean {
  return Array.isArray(request.body?.tools);
}

describe('the real Gemini CLI against the fake Gemini API', { timeout: 900_000 }, () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  let fake: FakeGemini;

  before(async () => {
    await installRealClient(GEMINI_CLI);
    fake = await FakeGemini.start({ apiKeys: ['gemini-cli-key'] });
    cleanups.push(() => fake.close());
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  beforeEach(() => {
    fake.reset();
    fake.checkThoughtSignatures = false;
  });

  function gemini(options: Partial<GeminiRun> & { prompt: string }): Promise<RunResult> {
    const home = tempHome('gwctl-gemini-');
    cleanups.push(home.cleanup);
    return runGemini({ home: home.home, ...options, env: { GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_API_KEY: 'gemini-cli-key', ...options.env } });
  }

  test('gemini -p "say pong" prints the fake reply, exit 0; the chat turn is an SSE stream with the key in x-goog-api-key', async () => {
    fake.answerWith((request) => (isChatTurn(request) ? { text: 'pong' } : undefined));
    const result = await gemini({ prompt: 'say pong' });
    assert.equal(result.code, 0, explain(result, fake));
    assert.equal(result.stdout.trim(), 'pong', explain(result, fake));

    for (const request of fake.requests) {
      assert.equal(request.method, 'POST', explain(result, fake));
      assert.match(request.path, /^\/v1beta\/models\/[a-z0-9.-]+:(generateContent|streamGenerateContent\?alt=sse)$/);
      assert.equal(request.keySource, 'x-goog-api-key');
      assert.equal(request.headers.authorization, undefined);
      assert.equal(request.headers['x-gemini-api-privileged-user-id'], undefined, 'usage statistics are off');
      assert.match(String(request.headers['user-agent']), /^GeminiCLI-tui\/0\.61\.0\//);
      assert.match(String(request.headers['x-goog-api-client']), /^google-genai-sdk\/1\.30\.0 gl-node\//);
    }
    const chat = fake.generations().filter(isChatTurn);
    assert.equal(chat.length, 1, explain(result, fake));
    const turn = chat[0]!;
    assert.equal(turn.action, 'streamGenerateContent');
    assert.equal(turn.query.get('alt'), 'sse');
    const body = turn.body;
    assert.deepEqual(Object.keys(body).sort(), ['contents', 'generationConfig', 'systemInstruction', 'tools']);
    assert.equal(body.systemInstruction.role, 'user');
    assert.match(body.systemInstruction.parts[0].text, /You are Gemini CLI/);
    const names = body.tools.flatMap((t: any) => t.functionDeclarations.map((d: any) => d.name));
    assert.ok(names.includes('list_directory') && names.includes('read_file'), names.join(', '));
    assert.ok(body.tools[0].functionDeclarations.every((d: any) => d.parametersJsonSchema && !d.parameters), 'declarations use parametersJsonSchema');
    assert.deepEqual(body.generationConfig.thinkingConfig, { includeThoughts: true, thinkingLevel: 'HIGH' });
    assert.equal(body.contents.length, 1);
    assert.equal(body.contents[0].role, 'user');
    assert.match(body.contents[0].parts[0].text, /^<session_context>/);
    assert.equal(body.contents[0].parts.at(-1).text, 'say pong');

    // Its `auto` model router asks a flash-lite model for a JSON complexity score first.
    const router = fake.generations().filter((r) => !isChatTurn(r));
    assert.ok(router.length >= 1, explain(result, fake));
    assert.equal(router[0]!.action, 'generateContent');
    assert.equal(router[0]!.body.generationConfig.responseMimeType, 'application/json');
  });

  test('with GEMINI_MODEL set: that model only, no router call; --output-format json reports the usage the fake sent', async () => {
    fake.answerWith({ text: 'pong', thought: 'short', usage: { promptTokenCount: 1000, cachedContentTokenCount: 600, candidatesTokenCount: 3, thoughtsTokenCount: 11 } });
    const result = await gemini({ prompt: 'say pong', env: { GEMINI_MODEL: 'gemini-2.5-flash' }, args: ['--output-format', 'json'] });
    assert.equal(result.code, 0, explain(result, fake));
    const output = JSON.parse(result.stdout);
    assert.equal(output.response, 'pong');
    const tokens = output.stats.models['gemini-2.5-flash'].tokens;
    assert.equal(tokens.prompt, 1000);
    assert.equal(tokens.cached, 600);
    assert.equal(tokens.candidates, 3);
    assert.equal(tokens.thoughts, 11);
    assert.equal(tokens.total, 1014);
    assert.deepEqual(fake.requests.map((r) => r.path), ['/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse']);
    assert.deepEqual(fake.last().body.generationConfig.thinkingConfig, { includeThoughts: true, thinkingBudget: 8192 });
  });

  test('a model of the gateway\'s own (GEMINI_MODEL=demo-chat): that name in the path, thinkingConfig with includeThoughts alone', async () => {
    if (!fake.models.some((m) => m.id === 'demo-chat')) fake.models.push({ id: 'demo-chat', methods: ['generateContent', 'countTokens'] });
    fake.answerWith({ text: 'pong' });
    const result = await gemini({ prompt: 'say pong', env: { GEMINI_MODEL: 'demo-chat' } });
    assert.equal(result.code, 0, explain(result, fake));
    assert.equal(result.stdout.trim(), 'pong');
    assert.deepEqual(fake.requests.map((r) => r.path), ['/v1beta/models/demo-chat:streamGenerateContent?alt=sse']);
    assert.deepEqual(fake.last().body.generationConfig, { temperature: 1, topP: 0.95, topK: 64, thinkingConfig: { includeThoughts: true } });
  });

  test('a tool round trip: the fake calls list_directory, the CLI runs it and sends the functionResponse with the signed call', async () => {
    fake.checkThoughtSignatures = true;
    const home = tempHome('gwctl-gemini-');
    cleanups.push(home.cleanup);
    const cwd = join(home.home, 'work');
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'marker-file.txt'), 'hello\n');
    let chatTurns = 0;
    fake.answerWith((request) => {
      if (!isChatTurn(request)) return undefined;
      chatTurns += 1;
      if (chatTurns === 1) return { thought: 'I will list the directory.', functionCalls: [{ name: 'list_directory', args: { dir_path: cwd } }] };
      return { text: 'The directory holds marker-file.txt.' };
    });
    const result = await runGemini({
      home: home.home,
      cwd,
      prompt: 'list the files here',
      env: { GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_API_KEY: 'gemini-cli-key', GEMINI_MODEL: 'gemini-3-pro-preview' },
    });
    assert.equal(result.code, 0, explain(result, fake));
    assert.equal(result.stdout.trim(), 'The directory holds marker-file.txt.', explain(result, fake));

    const chat = fake.generations().filter(isChatTurn);
    assert.equal(chat.length, 2, explain(result, fake));
    const [signature] = [...fake.issuedSignatures.values()];
    const contents = chat[1]!.body.contents;
    assert.deepEqual(contents.map((c: any) => c.role), ['user', 'model', 'user']);
    // The CLI drops the thought part, keeps the signature on the call and gives the call an id of its own.
    assert.equal(contents[1].parts.length, 1);
    const call = contents[1].parts[0];
    assert.equal(call.thoughtSignature, signature);
    assert.equal(call.functionCall.name, 'list_directory');
    assert.deepEqual(call.functionCall.args, { dir_path: cwd });
    assert.match(call.functionCall.id, /^list_directory_\d+_0$/);
    const response = contents[2].parts[0].functionResponse;
    assert.equal(response.name, 'list_directory');
    assert.equal(response.id, call.functionCall.id);
    assert.match(response.response.output, /marker-file\.txt/);
  });

  test('parallel calls: only the first is signed; the CLI sends both back in order with both results', async () => {
    fake.checkThoughtSignatures = true;
    const home = tempHome('gwctl-gemini-');
    cleanups.push(home.cleanup);
    const cwd = join(home.home, 'work');
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'notes.txt'), 'the secret word is turnip\n');
    let chatTurns = 0;
    fake.answerWith((request) => {
      if (!isChatTurn(request)) return undefined;
      chatTurns += 1;
      if (chatTurns > 1) return { text: 'Done: turnip.' };
      return { functionCalls: [{ name: 'list_directory', args: { dir_path: cwd } }, { name: 'read_file', args: { file_path: join(cwd, 'notes.txt') } }] };
    });
    const result = await runGemini({
      home: home.home,
      cwd,
      prompt: 'list the files and read notes.txt',
      env: { GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_API_KEY: 'gemini-cli-key', GEMINI_MODEL: 'gemini-3-pro-preview' },
    });
    assert.equal(result.code, 0, explain(result, fake));
    assert.equal(result.stdout.trim(), 'Done: turnip.', explain(result, fake));
    const chat = fake.generations().filter(isChatTurn);
    assert.equal(chat.length, 2, explain(result, fake));
    const [modelTurn, results] = chat[1]!.body.contents.slice(1);
    assert.equal(modelTurn.role, 'model');
    assert.deepEqual(modelTurn.parts.map((p: any) => p.functionCall.name), ['list_directory', 'read_file']);
    assert.equal(modelTurn.parts[0].thoughtSignature, [...fake.issuedSignatures.values()][0]);
    assert.equal(modelTurn.parts[1].thoughtSignature, undefined);
    assert.equal(results.role, 'user');
    assert.deepEqual(results.parts.map((p: any) => p.functionResponse.name), ['list_directory', 'read_file']);
    assert.deepEqual(results.parts.map((p: any) => p.functionResponse.id), modelTurn.parts.map((p: any) => p.functionCall.id));
    assert.match(results.parts[1].functionResponse.response.output, /turnip/);
  });

  test('an error answer reaches the user: a wrong key stops it with the API message, exit 1', async () => {
    const result = await gemini({ prompt: 'say pong', env: { GEMINI_API_KEY: 'wrong-key', GEMINI_MODEL: 'gemini-2.5-flash' } });
    assert.equal(result.code, 1, explain(result, fake));
    assert.match(result.stderr, /API key not valid/, explain(result, fake));
    assert.ok(fake.requests.length >= 1 && fake.requests.every((r) => r.apiKey === 'wrong-key'));
  });

  test('429 with a RetryInfo delay over 300 s stops it at once; a 503 is retried and then answered', async () => {
    const env = { GEMINI_MODEL: 'gemini-2.5-flash' };
    const retryInfo = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3600s' };
    fake.answerWith({ error: { code: 429, message: 'Budget exhausted for this key.', details: [retryInfo] } });
    const stopped = await gemini({ prompt: 'say pong', env });
    assert.equal(stopped.code, 1, explain(stopped, fake));
    assert.equal(fake.requests.length, 1, explain(stopped, fake));
    assert.match(stopped.stderr, /Budget exhausted for this key/);

    fake.reset();
    fake.script({ error: { code: 503, message: 'The model is overloaded.' } });
    fake.answerWith({ text: 'pong' });
    const retried = await gemini({ prompt: 'say pong', env });
    assert.equal(retried.code, 0, explain(retried, fake));
    assert.equal(retried.stdout.trim(), 'pong');
    assert.equal(fake.requests.length, 2, explain(retried, fake));
  });

  test('without security.auth.selectedType "gemini-api-key" it exits 41 before sending anything', async () => {
    const result = await gemini({ prompt: 'say pong', settings: { security: { folderTrust: { enabled: false } } } });
    assert.equal(result.code, 41, explain(result, fake));
    assert.match(result.stderr, /Invalid auth method selected/);
    assert.equal(fake.requests.length, 0);
  });

  test('runGemini refuses a base URL off loopback', async () => {
    await assert.rejects(gemini({ prompt: 'x', env: { GOOGLE_GEMINI_BASE_URL: 'https://generativelanguage.googleapis.com' } }), /not on loopback/);
  });
});
