// The Gemini API both ways through a started gateway, with official clients on loopback:
// - the @google/genai SDK (pinned 1.x) gets JSON and streamed answers from every kind of upstream
//   (the demo, an openai upstream speaking chat completions, an anthropic one speaking messages, a
//   gemini one), countTokens, embeddings (a task type reaching Cohere Embed on a Bedrock fake), the
//   model list; errors come in Gemini's envelope; the key works as x-goog-api-key, ?key= and
//   Bearer and never shows in logs, the request log or errors;
// - the openai SDK (chat completions and Responses) and @anthropic-ai/sdk get answers from a gemini
//   upstream that checks thought signatures (as Gemini 3 does): a function call reaches the client
//   with an id that carries its signature, the client's tool result goes back, and the upstream
//   accepts it, which proves the signature was restored.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, FunctionCallingConfigMode, GoogleGenAI } from '@google/genai';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { FakeBedrock } from '../helpers/cloud/fake-bedrock.ts';
import { FakeGemini } from '../helpers/fake-gemini.ts';
import { embeddingFor } from '../helpers/fake-gemini-answers.ts';
import { FakeUpstream, jsonReply, sseReply } from '../helpers/fake-upstream.ts';
import { GatewayProcess, isolateClientEnvironment } from '../helpers/gateway-process.ts';
import { chatFrames, chatJson, messagesFrames, messagesJson } from '../helpers/translation/protocol-frames.ts';
import { waitFor } from '../helpers/wait-for.ts';

const UPSTREAM_KEYS = { UP_OPENAI: 'upstream-secret-openai', UP_ANTHROPIC: 'upstream-secret-anthropic', UP_GEMINI: 'upstream-secret-gemini', UP_AWS_SECRET: 'upstream-secret-aws' };
const AWS_KEY_ID = 'AKIAGENAITEST';
const WEATHER_DECLARATION = { name: 'get_weather', description: 'Current weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

function requestLogRows(gw: GatewayProcess): Array<Record<string, unknown>> {
  const db = new Database(join(gw.dataDir, 'gateway.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select * from request_log order by id').all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

async function geminiError(promise: Promise<unknown>): Promise<{ status: number; body: any }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `an ApiError, got ${String(error)}`);
    return { status: error.status, body: JSON.parse(error.message) };
  }
  assert.fail('the call should have failed');
}

describe('@google/genai, openai and @anthropic-ai/sdk clients through the gateway\'s Gemini support', { timeout: 300_000 }, () => {
  let openaiUp: FakeUpstream;
  let anthropicUp: FakeUpstream;
  let fake: FakeGemini;
  let bedrock: FakeBedrock;
  let gw: GatewayProcess;
  let key: string;
  let ai: GoogleGenAI;
  let restoreEnv: () => void;

  before(async () => {
    restoreEnv = isolateClientEnvironment();
    openaiUp = await FakeUpstream.start();
    anthropicUp = await FakeUpstream.start();
    fake = await FakeGemini.start({ apiKeys: [UPSTREAM_KEYS.UP_GEMINI], checkThoughtSignatures: true });
    bedrock = await FakeBedrock.start({ region: 'us-east-1', credentials: { accessKeyId: AWS_KEY_ID, secretAccessKey: UPSTREAM_KEYS.UP_AWS_SECRET } });
    gw = await GatewayProcess.start({
      providers: {
        providers: [
          { name: 'demo', type: 'demo' },
          { name: 'oa', type: 'openai', baseUrl: `${openaiUp.url}/v1`, apiKeyEnv: 'UP_OPENAI', retries: 0, timeoutMs: 20_000, models: [{ name: 'via-chat', upstreamModel: 'gpt-up' }] },
          { name: 'an', type: 'anthropic', baseUrl: anthropicUp.url, apiKeyEnv: 'UP_ANTHROPIC', retries: 0, timeoutMs: 20_000, models: [{ name: 'via-messages', upstreamModel: 'claude-up' }] },
          { name: 'google', type: 'gemini', baseUrl: fake.url, apiKeyEnv: 'UP_GEMINI', retries: 0, timeoutMs: 20_000, models: ['gemini-2.5-flash', 'gemini-3-pro-preview', { name: 'gemini-embed', upstreamModel: 'gemini-embedding-001', kind: 'embedding' }] },
          { name: 'aws', type: 'bedrock', region: 'us-east-1', baseUrl: bedrock.url, accessKeyIdEnv: 'UP_AWS_KEY_ID', secretAccessKeyEnv: 'UP_AWS_SECRET', retries: 0, timeoutMs: 20_000, models: [{ name: 'cohere-embed', upstreamModel: 'cohere.embed-english-v3', kind: 'embedding' }] },
        ],
      },
      env: { ...UPSTREAM_KEYS, UP_AWS_KEY_ID: AWS_KEY_ID },
      // Debug: the logs hold everything the gateway writes about requests, so the key check below means something.
      logLevel: 'debug',
    });
    key = (await gw.createKey('admin', 'genai')).key;
    ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gw.textUrl } });
  });
  beforeEach(() => {
    openaiUp.reset();
    anthropicUp.reset();
    fake.reset();
    bedrock.reset();
  });
  after(async () => {
    await gw?.cleanup();
    await Promise.all([openaiUp?.close(), anthropicUp?.close(), fake?.close(), bedrock?.close()]);
    restoreEnv?.();
    // Nothing the gateway wrote holds the client's key or an upstream's.
    if (gw) {
      assert.match(gw.stderr, /"msg":"request"/, 'the gateway logged its requests');
      for (const secret of [key, ...Object.values(UPSTREAM_KEYS)]) {
        assert.ok(!gw.stdout.includes(secret) && !gw.stderr.includes(secret), 'a key in the gateway output');
      }
    }
  });

  describe('@google/genai -> gateway -> each upstream', () => {
    test('demo: JSON and stream, usage in the answer', async () => {
      const answer = await ai.models.generateContent({ model: 'demo-chat', contents: 'say pong' });
      assert.match(answer.text ?? '', /Demo reply to "say pong"/);
      assert.equal(answer.candidates?.[0]?.finishReason, 'STOP');
      assert.ok((answer.usageMetadata?.promptTokenCount ?? 0) > 0);
      assert.ok((answer.usageMetadata?.candidatesTokenCount ?? 0) > 0);
      let text = '';
      let chunks = 0;
      let last: any;
      for await (const chunk of await ai.models.generateContentStream({ model: 'demo-chat', contents: 'say pong' })) {
        text += chunk.text ?? '';
        chunks += 1;
        last = chunk;
      }
      assert.match(text, /Demo reply to "say pong"/);
      assert.ok(chunks > 1, `${chunks} chunks`);
      assert.equal(last.candidates?.[0]?.finishReason, 'STOP');
      assert.ok(last.usageMetadata?.totalTokenCount > 0);
    });

    test('demo: a forced call (mode ANY) reaches the SDK as a function call', async () => {
      const answer = await ai.models.generateContent({
        model: 'demo-chat',
        contents: 'weather in Paris?',
        config: { tools: [{ functionDeclarations: [WEATHER_DECLARATION] }], toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } } },
      });
      assert.equal(answer.functionCalls?.[0]?.name, 'get_weather');
    });

    test('openai upstream: the request arrives as chat completions; JSON and stream answers with usage classes', async () => {
      openaiUp.handle((r) =>
        r.json().stream
          ? sseReply(chatFrames('gpt-up', ['Bonjour ', 'de ', 'chat'], { input: 11, output: 3, cacheRead: 4 }))
          : jsonReply(200, chatJson('gpt-up', 'Bonjour de chat', { input: 11, output: 3, cacheRead: 4 })),
      );
      const answer = await ai.models.generateContent({ model: 'via-chat', contents: 'Say hi', config: { systemInstruction: 'Be brief.', maxOutputTokens: 40, temperature: 0.3 } });
      const sent = openaiUp.last();
      assert.equal(sent.path, '/v1/chat/completions');
      assert.equal(sent.headers.authorization, `Bearer ${UPSTREAM_KEYS.UP_OPENAI}`);
      const body = sent.json();
      assert.equal(body.model, 'gpt-up');
      assert.deepEqual(body.messages.map((m: any) => [m.role, typeof m.content === 'string' ? m.content : m.content.map((p: any) => p.text).join('')]), [
        ['system', 'Be brief.'],
        ['user', 'Say hi'],
      ]);
      assert.equal(body.temperature, 0.3);
      assert.equal(answer.text, 'Bonjour de chat');
      assert.equal(answer.usageMetadata?.promptTokenCount, 15);
      assert.equal(answer.usageMetadata?.cachedContentTokenCount, 4);
      assert.equal(answer.usageMetadata?.candidatesTokenCount, 3);
      assert.equal(answer.usageMetadata?.totalTokenCount, 18);

      let text = '';
      let last: any;
      for await (const chunk of await ai.models.generateContentStream({ model: 'via-chat', contents: 'Say hi' })) {
        text += chunk.text ?? '';
        last = chunk;
      }
      assert.equal(text, 'Bonjour de chat');
      assert.equal(last.candidates?.[0]?.finishReason, 'STOP');
      assert.equal(last.usageMetadata?.promptTokenCount, 15);
      assert.equal(last.usageMetadata?.candidatesTokenCount, 3);
      assert.equal(openaiUp.last().json().stream, true);
    });

    test('anthropic upstream: the request arrives as messages; JSON and stream answers, a tool call with its arguments', async () => {
      anthropicUp.handle((r) =>
        r.json().stream
          ? sseReply(messagesFrames('claude-up', ['Hallo ', 'Welt'], { input: 7, output: 2, cacheRead: 100, cacheCreation: 20 }))
          : jsonReply(200, messagesJson('claude-up', 'Hallo Welt', { input: 7, output: 2, cacheRead: 100, cacheCreation: 20 })),
      );
      const answer = await ai.models.generateContent({ model: 'via-messages', contents: 'Greet', config: { systemInstruction: 'German.' } });
      const sent = anthropicUp.last();
      assert.equal(sent.path, '/v1/messages');
      assert.equal(sent.headers['x-api-key'], UPSTREAM_KEYS.UP_ANTHROPIC);
      const body = sent.json();
      assert.equal(body.model, 'claude-up');
      assert.deepEqual(body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Greet' }] }]);
      assert.deepEqual(body.system, [{ type: 'text', text: 'German.' }]);
      assert.equal(answer.text, 'Hallo Welt');
      assert.equal(answer.usageMetadata?.promptTokenCount, 127);
      assert.equal(answer.usageMetadata?.cachedContentTokenCount, 100);

      let text = '';
      let last: any;
      for await (const chunk of await ai.models.generateContentStream({ model: 'via-messages', contents: 'Greet' })) {
        text += chunk.text ?? '';
        last = chunk;
      }
      assert.equal(text, 'Hallo Welt');
      assert.equal(last.usageMetadata?.promptTokenCount, 127);
      assert.equal(last.usageMetadata?.candidatesTokenCount, 2);

      anthropicUp.handle(() => jsonReply(200, messagesJson('claude-up', '', { input: 30, output: 9 }, { tools: [{ id: 'toolu_01', name: 'get_weather', pieces: ['{"city":"Oslo"}'] }] })));
      const call = await ai.models.generateContent({ model: 'via-messages', contents: 'Weather in Oslo?', config: { tools: [{ functionDeclarations: [WEATHER_DECLARATION] }] } });
      assert.deepEqual(call.functionCalls?.map((c) => [c.id, c.name, c.args]), [['toolu_01', 'get_weather', { city: 'Oslo' }]]);
      assert.deepEqual(anthropicUp.last().json().tools, [{ name: 'get_weather', description: 'Current weather', input_schema: WEATHER_DECLARATION.parametersJsonSchema }]);
    });

    test('anthropic upstream: thinking comes back signed (JSON and stream), so the next turn is accepted with its tool result', async () => {
      const signature = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds9dwX6tVlk6eJTEpPcYH+3DQmuKdvX6SVbZ6Yl9ieX0=';
      const config = { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 }, tools: [{ functionDeclarations: [WEATHER_DECLARATION] }] };
      anthropicUp.handle(() => jsonReply(200, messagesJson('claude-up', '', { input: 30, output: 9 }, { thinking: { text: 'Need the weather.', signature }, tools: [{ id: 'toolu_02', name: 'get_weather', pieces: ['{"city":"Oslo"}'] }] })));
      const first = await ai.models.generateContent({ model: 'via-messages', contents: 'Weather in Oslo?', config });
      const modelTurn = first.candidates![0]!.content!;
      assert.deepEqual(modelTurn.parts![0], { text: 'Need the weather.', thought: true, thoughtSignature: signature });
      anthropicUp.handle(() => jsonReply(200, messagesJson('claude-up', 'Seven degrees.', { input: 40, output: 3 })));
      const call = first.functionCalls![0]!;
      const second = await ai.models.generateContent({
        model: 'via-messages',
        config,
        contents: [{ role: 'user', parts: [{ text: 'Weather in Oslo?' }] }, modelTurn, { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { temp: 7 } } }] }],
      });
      assert.equal(second.text, 'Seven degrees.');
      const sent = anthropicUp.last().json();
      assert.deepEqual(sent.messages[1].content, [
        { type: 'thinking', thinking: 'Need the weather.', signature },
        { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { city: 'Oslo' } },
      ]);
      assert.deepEqual(sent.messages[2].content, [{ type: 'tool_result', tool_use_id: 'toolu_02', content: '{"temp":7}' }]);

      // As the Gemini CLI keeps history: no thought parts, the call with its signature. The thinking still goes back.
      const cliTurn = { role: 'model', parts: modelTurn.parts!.filter((p) => !p.thought) };
      await ai.models.generateContent({
        model: 'via-messages',
        config,
        contents: [{ role: 'user', parts: [{ text: 'Weather in Oslo?' }] }, cliTurn, { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { temp: 7 } } }] }],
      });
      assert.deepEqual(anthropicUp.last().json().messages[1].content, [
        { type: 'thinking', thinking: 'Need the weather.', signature },
        { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { city: 'Oslo' } },
      ]);

      // Streamed: the thought arrives in pieces, its signature in a part of its own; the parts sent back make one signed block.
      anthropicUp.handle(() => sseReply([readFileSync(new URL('../fixtures/sse/messages/thinking.sse', import.meta.url))]));
      const parts: any[] = [];
      for await (const chunk of await ai.models.generateContentStream({ model: 'via-messages', contents: 'What is 27 × 453?', config: { thinkingConfig: { includeThoughts: true } } })) parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
      anthropicUp.handle(() => jsonReply(200, messagesJson('claude-up', 'You are welcome.', { input: 40, output: 3 })));
      await ai.models.generateContent({ model: 'via-messages', contents: [{ role: 'user', parts: [{ text: 'What is 27 × 453?' }] }, { role: 'model', parts }, { role: 'user', parts: [{ text: 'thanks' }] }] });
      assert.deepEqual(anthropicUp.last().json().messages[1].content, [
        { type: 'thinking', thinking: '27 × 453: 27 × 400 = 10800, 27 × 53 = 1431; sum 12231.', signature },
        { type: 'text', text: '27 × 453 = 12231' },
      ]);
    });

    test('openai upstream: a function call and its response round-trip with the chat call id', async () => {
      openaiUp.handle(() => jsonReply(200, chatJson('gpt-up', null, { input: 20, output: 5 }, { tools: [{ id: 'call_Q1w2E3', name: 'get_weather', pieces: ['{"city":"Oslo"}'] }] })));
      const config = { tools: [{ functionDeclarations: [WEATHER_DECLARATION] }] };
      const first = await ai.models.generateContent({ model: 'via-chat', contents: 'Weather in Oslo?', config });
      const call = first.functionCalls![0]!;
      assert.deepEqual([call.id, call.name, call.args], ['call_Q1w2E3', 'get_weather', { city: 'Oslo' }]);
      openaiUp.handle(() => jsonReply(200, chatJson('gpt-up', 'Seven degrees.', { input: 30, output: 3 })));
      const second = await ai.models.generateContent({
        model: 'via-chat',
        config,
        contents: [{ role: 'user', parts: [{ text: 'Weather in Oslo?' }] }, first.candidates![0]!.content!, { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { temp: 7 } } }] }],
      });
      assert.equal(second.text, 'Seven degrees.');
      const messages = openaiUp.last().json().messages;
      assert.equal(messages[1].tool_calls[0].id, 'call_Q1w2E3');
      assert.equal(messages[2].role, 'tool');
      assert.equal(messages[2].tool_call_id, 'call_Q1w2E3');
      assert.deepEqual(JSON.parse(messages[2].content.map?.((p: any) => p.text).join('') ?? messages[2].content), { temp: 7 });
    });

    test('an upstream stream that fails or is cut mid-way ends in an error for the client, SSE and JSON array, never in a finish', async () => {
      const request = (query: string) =>
        fetch(`${gw.textUrl}/v1beta/models/via-messages:streamGenerateContent${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'go' }] }] }),
        });
      for (const [file, code] of [['overloaded-midstream', 503], ['cut-off', 502]] as const) {
        anthropicUp.handle(() => sseReply([readFileSync(new URL(`../fixtures/sse/messages/${file}.sse`, import.meta.url))]));
        const sse = await (await request('?alt=sse')).text();
        const events = sse.split(/\r?\n\r?\n/).filter((e) => e.startsWith('data: ')).map((e) => JSON.parse(e.slice(6)));
        assert.ok(events.length > 1, sse);
        assert.equal(events.at(-1).error?.code, code, `${file}: the stream ends with an error object: ${sse}`);
        assert.ok(!events.some((e) => e.candidates?.[0]?.finishReason), `${file}: no event claims a finish`);

        const array = JSON.parse(await (await request('')).text()) as any[];
        assert.equal(array.at(-1).error?.code, code, `${file}: the array ends with an error object`);
        assert.ok(!array.some((e) => e.candidates?.[0]?.finishReason), `${file}: no element claims a finish`);

        // The genai SDK reads the partial text; it raises only an error written as bare JSON (not as an
        // SSE event), so its caller learns of the failure by the missing finishReason.
        let finish: string | undefined;
        let text = '';
        for await (const chunk of await ai.models.generateContentStream({ model: 'via-messages', contents: 'go' })) {
          text += chunk.text ?? '';
          finish = chunk.candidates?.[0]?.finishReason ?? finish;
        }
        assert.ok(text.length > 0 && finish === undefined, `${file}: ${text} ${finish}`);
      }
    });

    test('gemini upstream: a byte pass-through of JSON and stream (usage classes kept, key swapped)', async () => {
      fake.script({ thought: 'Greeting.', text: 'Hello from Gemini.', usage: { promptTokenCount: 50, cachedContentTokenCount: 30, candidatesTokenCount: 4, thoughtsTokenCount: 6 } });
      const answer = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hello', config: { thinkingConfig: { includeThoughts: true } } });
      assert.equal(answer.text, 'Hello from Gemini.');
      assert.deepEqual(answer.usageMetadata, { promptTokenCount: 50, cachedContentTokenCount: 30, candidatesTokenCount: 4, thoughtsTokenCount: 6, totalTokenCount: 60 });
      const sent = fake.last();
      assert.equal(sent.path, '/v1beta/models/gemini-2.5-flash:generateContent');
      assert.equal(sent.apiKey, UPSTREAM_KEYS.UP_GEMINI);

      let text = '';
      let last: any;
      for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'stream please' })) {
        text += chunk.text ?? '';
        last = chunk;
      }
      assert.equal(text, 'Fake Gemini heard: stream please');
      assert.equal(last.candidates?.[0]?.finishReason, 'STOP');
      assert.ok(last.usageMetadata?.candidatesTokenCount > 0);
      assert.match(fake.last().path, /:streamGenerateContent\?alt=sse$/);
    });

    test('usage and the request log record the Gemini requests, per model, without the key', async () => {
      await ai.models.generateContent({ model: 'demo-chat', contents: 'count me' });
      const usage = await waitFor(
        async () => {
          const rows = await gw.adminJson<any>(['usage', '--json']);
          const text = JSON.stringify(rows);
          return ['demo-chat', 'via-chat', 'via-messages', 'gemini-2.5-flash'].every((m) => text.includes(m)) ? rows : undefined;
        },
        { what: 'usage for every model', timeoutMs: 30_000 },
      );
      assert.ok(!JSON.stringify(usage).includes(key));
      const log = await waitFor(
        () => {
          const rows = requestLogRows(gw);
          return ['demo-chat', 'via-chat', 'via-messages', 'gemini-2.5-flash'].every((m) => rows.some((r) => r.model === m && r.status === 200)) ? rows : undefined;
        },
        { what: 'request log rows for every model', timeoutMs: 30_000 },
      );
      const viaChat = log.find((r) => r.model === 'via-chat' && r.status === 200)!;
      assert.equal(viaChat.input_tokens, 15);
      assert.equal(viaChat.output_tokens, 3);
      assert.ok(!JSON.stringify(log).includes(key));
    });

    test('countTokens, embedContent and batchEmbedContents (demo embedding model)', async () => {
      const counted = await ai.models.countTokens({ model: 'demo-chat', contents: 'how many tokens are these words' });
      assert.ok((counted.totalTokens ?? 0) > 0, JSON.stringify(counted));
      const countedUp = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'how many tokens' });
      assert.ok((countedUp.totalTokens ?? 0) > 0);
      assert.equal(fake.last().action, 'countTokens');

      anthropicUp.handle((r) => (r.path === '/v1/messages/count_tokens' ? jsonReply(200, { input_tokens: 42 }) : jsonReply(404, {})));
      const countedMessages = await ai.models.countTokens({ model: 'via-messages', contents: 'count me upstream' });
      assert.equal(countedMessages.totalTokens, 42);
      assert.equal(anthropicUp.last().path, '/v1/messages/count_tokens');
      assert.deepEqual(anthropicUp.last().json().messages, [{ role: 'user', content: [{ type: 'text', text: 'count me upstream' }] }]);
      // A chat-completions upstream has no token counting: refused in Gemini's shape, naming the model and the method.
      const countedChat = await geminiError(ai.models.countTokens({ model: 'via-chat', contents: 'no count endpoint' }));
      assert.equal(countedChat.status, 400);
      assert.equal(countedChat.body.error.status, 'INVALID_ARGUMENT');
      assert.match(countedChat.body.error.message, /via-chat.*countTokens/);

      const one = await ai.models.embedContent({ model: 'demo-embedding', contents: 'a sentence' });
      assert.equal(one.embeddings?.length, 1);
      assert.ok((one.embeddings?.[0]?.values?.length ?? 0) > 0);
      const again = await ai.models.embedContent({ model: 'demo-embedding', contents: 'a sentence' });
      assert.deepEqual(again.embeddings?.[0]?.values, one.embeddings?.[0]?.values, 'deterministic');
      const many = await ai.models.embedContent({ model: 'demo-embedding', contents: ['first', 'second', 'third'] });
      assert.equal(many.embeddings?.length, 3);
      assert.notDeepEqual(many.embeddings?.[0]?.values, many.embeddings?.[1]?.values);
    });

    test('embedContent with a task type, served by Cohere Embed on Bedrock: queries embedded as queries, documents as documents', async () => {
      const query = await ai.models.embedContent({ model: 'cohere-embed', contents: 'where is my parcel', config: { taskType: 'RETRIEVAL_QUERY' } });
      assert.deepEqual(query.embeddings?.map((e) => e.values), [embeddingFor('where is my parcel', 8)]);
      const documents = await ai.models.embedContent({ model: 'cohere-embed', contents: ['parcel one', 'parcel two'], config: { taskType: 'RETRIEVAL_DOCUMENT' } });
      assert.deepEqual(documents.embeddings?.map((e) => e.values), [embeddingFor('parcel one', 8), embeddingFor('parcel two', 8)]);
      assert.deepEqual(bedrock.requests.map((r) => [r.path, r.body.texts, r.body.input_type]), [
        ['/model/cohere.embed-english-v3/invoke', ['where is my parcel'], 'search_query'],
        ['/model/cohere.embed-english-v3/invoke', ['parcel one', 'parcel two'], 'search_document'],
      ]);
    });

    test('models list and get: every text and embedding model, with its methods', async () => {
      const names: string[] = [];
      for await (const model of await ai.models.list()) names.push(model.name ?? '');
      for (const id of ['demo-chat', 'demo-embedding', 'via-chat', 'via-messages', 'gemini-2.5-flash']) assert.ok(names.includes(`models/${id}`), names.join(', '));
      assert.ok(!names.includes('models/demo-image'), 'image models are not Gemini models');
      const model = await ai.models.get({ model: 'via-messages' });
      assert.equal(model.name, 'models/via-messages');
      assert.ok(model.supportedActions?.includes('generateContent'));
      const embedding = await ai.models.get({ model: 'models/demo-embedding' });
      assert.deepEqual(embedding.supportedActions, ['embedContent', 'batchEmbedContents']);
    });

    test('errors in Gemini\'s shape: unknown model lists the served ones, wrong key 401, a doubled version named, an upstream refusal relayed', async () => {
      const unknown = await geminiError(ai.models.generateContent({ model: 'no-such-model', contents: 'hi' }));
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, 404);
      assert.equal(unknown.body.error.status, 'NOT_FOUND');
      assert.match(unknown.body.error.message, /no-such-model/);
      assert.match(unknown.body.error.message, /demo-chat/);
      assert.match(unknown.body.error.message, /via-messages/);

      const wrongKey = 'sk-wrong-key-0123456789abcdef';
      const wrong = await geminiError(new GoogleGenAI({ apiKey: wrongKey, httpOptions: { baseUrl: gw.textUrl } }).models.generateContent({ model: 'demo-chat', contents: 'hi' }));
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.error.status, 'UNAUTHENTICATED');
      assert.ok(!wrong.body.error.message.includes(wrongKey), wrong.body.error.message);

      const doubled = await fetch(`${gw.textUrl}/v1beta/v1beta/models/demo-chat:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
      assert.equal(doubled.status, 404);
      const doubledBody = (await doubled.json()) as any;
      assert.equal(doubledBody.error.status, 'NOT_FOUND');
      assert.match(doubledBody.error.message, /version twice/);
      assert.match(doubledBody.error.message, new RegExp(gw.textUrl.replace(/[.:/]/g, '\\$&')));

      const get = await fetch(`${gw.textUrl}/v1beta/models/demo-chat:generateContent`, { headers: { 'x-goog-api-key': key } });
      assert.equal(get.status, 404);
      const getBody = (await get.json()) as any;
      assert.equal(getBody.error.status, 'NOT_FOUND');
      assert.match(getBody.error.message, /with POST: POST http:\/\/\S+\/v1beta\/models\/demo-chat:generateContent/);

      const sizesResponse = await fetch(`${gw.textUrl}/v1beta/models/demo-embedding:batchEmbedContents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
        body: JSON.stringify({ requests: [{ content: { parts: [{ text: 'a' }] }, outputDimensionality: 4 }, { content: { parts: [{ text: 'b' }] }, outputDimensionality: 8 }] }),
      });
      const sizes = { status: sizesResponse.status, body: (await sizesResponse.json()) as any };
      assert.equal(sizes.status, 400);
      assert.match(sizes.body.error.message, /requests\[1\]\.outputDimensionality/);

      const refused = await geminiError(ai.models.generateContent({ model: 'via-messages', contents: 'hi', config: { seed: 7 } }));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.status, 'INVALID_ARGUMENT');
      assert.match(refused.body.error.message, /generationConfig\.seed/);
      assert.equal(anthropicUp.requests.length, 0, 'nothing went upstream');

      fake.script({ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).' } });
      const limited = await geminiError(ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }));
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.status, 'RESOURCE_EXHAUSTED');
      for (const e of [unknown, wrong, refused, limited]) assert.ok(!JSON.stringify(e.body).includes(key));
    });

    test('the key as ?key= and as Bearer; without a key a 401 in Gemini\'s shape', async () => {
      const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'key test' }] }] });
      const headers = { 'content-type': 'application/json' };
      const viaQuery = await fetch(`${gw.textUrl}/v1beta/models/demo-chat:generateContent?key=${encodeURIComponent(key)}`, { method: 'POST', headers, body });
      assert.equal(viaQuery.status, 200, await viaQuery.clone().text());
      assert.match(JSON.stringify(await viaQuery.json()), /Demo reply to \\"key test\\"/);
      const viaBearer = await fetch(`${gw.textUrl}/v1beta/models/demo-chat:streamGenerateContent?alt=sse`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${key}` }, body });
      assert.equal(viaBearer.status, 200);
      assert.match(await viaBearer.text(), /^data: /);
      const listed = await fetch(`${gw.textUrl}/v1beta/models?key=${encodeURIComponent(key)}`);
      assert.equal(listed.status, 200);
      const none = await fetch(`${gw.textUrl}/v1beta/models/demo-chat:generateContent`, { method: 'POST', headers, body });
      assert.equal(none.status, 401);
      const noneBody = (await none.json()) as any;
      assert.equal(noneBody.error.code, 401);
      assert.equal(noneBody.error.status, 'UNAUTHENTICATED');
      const wrongQuery = await fetch(`${gw.textUrl}/v1beta/models/demo-chat:generateContent?key=sk-not-a-key-in-the-query`, { method: 'POST', headers, body });
      assert.equal(wrongQuery.status, 401);
      assert.ok(!(await wrongQuery.text()).includes('sk-not-a-key-in-the-query'));
    });

    test('the JSON-array stream (no alt=sse) carries the same answer', async () => {
      anthropicUp.handle(() => sseReply(messagesFrames('claude-up', ['in ', 'an array'], { input: 1, output: 1 })));
      const response = await fetch(`${gw.textUrl}/v1beta/models/via-messages:streamGenerateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'array' }] }] }),
      });
      assert.equal(response.status, 200);
      const chunks = JSON.parse(await response.text()) as any[];
      assert.ok(Array.isArray(chunks) && chunks.length > 0);
      assert.equal(chunks.at(-1).candidates[0].finishReason, 'STOP');
      assert.equal(chunks.map((c) => c.candidates[0].content.parts.map((p: any) => p.text ?? '').join('')).join(''), 'in an array');
    });
  });

  describe('clients of other protocols -> gateway -> gemini upstream (signatures checked)', () => {
    const weatherTool = { type: 'function' as const, function: { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

    function scriptRoundTrip(): void {
      fake.answerWith((request) => {
        const last = request.body.contents.at(-1);
        const result = last?.parts?.find((p: any) => p.functionResponse);
        if (result) return { text: `It is ${JSON.stringify(result.functionResponse.response)} in Oslo.` };
        if (request.body.tools) return { thought: 'I should look it up.', functionCalls: [{ name: 'get_weather', args: { city: 'Oslo' } }] };
        return undefined;
      });
    }

    function assertSignatureRestored(): void {
      const second = fake.generations()[1]!.body;
      const model = second.contents.find((c: any) => c.role === 'model');
      const callPart = model.parts.find((p: any) => p.functionCall);
      assert.equal(callPart.thoughtSignature, fake.issuedSignatures.values().next().value);
      assert.ok(!callPart.functionCall.id?.includes('__ts_'), 'the signature is taken out of the id');
      const response = second.contents.at(-1).parts.find((p: any) => p.functionResponse);
      assert.equal(response.functionResponse.name, 'get_weather');
    }

    test('openai chat completions, JSON: a signed call, the tool result back, the upstream accepts it', async () => {
      scriptRoundTrip();
      const client = new OpenAI({ baseURL: `${gw.textUrl}/v1`, apiKey: key, maxRetries: 0 });
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];
      const first = await client.chat.completions.create({ model: 'gemini-3-pro-preview', messages, tools: [weatherTool] });
      assert.equal(first.choices[0]!.finish_reason, 'tool_calls');
      const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      assert.equal(call.function.name, 'get_weather');
      assert.deepEqual(JSON.parse(call.function.arguments), { city: 'Oslo' });
      assert.match(call.id, /__ts_[A-Za-z0-9_-]+$/);
      messages.push(first.choices[0]!.message as OpenAI.ChatCompletionMessageParam, { role: 'tool', tool_call_id: call.id, content: '{"temp":"7C"}' });
      const second = await client.chat.completions.create({ model: 'gemini-3-pro-preview', messages, tools: [weatherTool] });
      assert.equal(second.choices[0]!.message.content, 'It is {"temp":"7C"} in Oslo.');
      assert.equal(second.choices[0]!.finish_reason, 'stop');
      assertSignatureRestored();
    });

    test('openai chat completions, stream: the call with its signed id arrives in deltas; the round trip closes', async () => {
      scriptRoundTrip();
      const client = new OpenAI({ baseURL: `${gw.textUrl}/v1`, apiKey: key, maxRetries: 0 });
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Oslo?' }];
      let id = '';
      let name = '';
      let args = '';
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | undefined;
      for await (const chunk of await client.chat.completions.create({ model: 'gemini-3-pro-preview', messages, tools: [weatherTool], stream: true, stream_options: { include_usage: true } })) {
        const delta = chunk.choices[0]?.delta;
        for (const tc of delta?.tool_calls ?? []) {
          id += tc.id ?? '';
          name += tc.function?.name ?? '';
          args += tc.function?.arguments ?? '';
        }
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      assert.equal(finish, 'tool_calls');
      assert.equal(name, 'get_weather');
      assert.match(id, /__ts_/);
      assert.ok(usage && usage.prompt_tokens > 0 && usage.completion_tokens > 0, JSON.stringify(usage));
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] }, { role: 'tool', tool_call_id: id, content: '{"temp":"7C"}' });
      let text = '';
      for await (const chunk of await client.chat.completions.create({ model: 'gemini-3-pro-preview', messages, tools: [weatherTool], stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
      assert.equal(text, 'It is {"temp":"7C"} in Oslo.');
      assertSignatureRestored();
    });

    test('@anthropic-ai/sdk messages, JSON and stream: thinking and a signed tool_use, the tool_result accepted', async () => {
      scriptRoundTrip();
      const client = new Anthropic({ baseURL: gw.textUrl, apiKey: key, maxRetries: 0 });
      const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Current weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
      const first = await client.messages.create({ model: 'gemini-3-pro-preview', max_tokens: 500, tools, messages: [{ role: 'user', content: 'Weather in Oslo?' }] });
      assert.equal(first.stop_reason, 'tool_use');
      const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
      assert.match(use.id, /^[A-Za-z0-9_-]+$/);
      assert.match(use.id, /__ts_/);
      assert.deepEqual(use.input, { city: 'Oslo' });
      assert.ok(first.content.some((b) => b.type === 'thinking'), 'the thought came as thinking');
      const second = await client.messages.create({
        model: 'gemini-3-pro-preview',
        max_tokens: 500,
        tools,
        messages: [
          { role: 'user', content: 'Weather in Oslo?' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '{"temp":"7C"}' }] },
        ],
      });
      assert.equal(second.stop_reason, 'end_turn');
      assert.deepEqual(second.content.map((b) => (b.type === 'text' ? b.text : b.type)), ['It is {"temp":"7C"} in Oslo.']);
      assertSignatureRestored();

      fake.reset();
      scriptRoundTrip();
      const stream = client.messages.stream({ model: 'gemini-3-pro-preview', max_tokens: 500, tools, messages: [{ role: 'user', content: 'Weather in Oslo?' }] });
      const streamed = await stream.finalMessage();
      assert.equal(streamed.stop_reason, 'tool_use');
      const streamedUse = streamed.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
      assert.match(streamedUse.id, /__ts_/);
      assert.deepEqual(streamedUse.input, { city: 'Oslo' });
      assert.ok(streamed.usage.input_tokens > 0);
      const after = await client.messages
        .stream({
          model: 'gemini-3-pro-preview',
          max_tokens: 500,
          tools,
          messages: [
            { role: 'user', content: 'Weather in Oslo?' },
            { role: 'assistant', content: streamed.content },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: streamedUse.id, content: '{"temp":"7C"}' }] },
          ],
        })
        .finalMessage();
      assert.deepEqual(after.content.map((b) => (b.type === 'text' ? b.text : b.type)), ['It is {"temp":"7C"} in Oslo.']);
      assertSignatureRestored();
    });

    test('a signature the gateway did not carry back is refused by the upstream (the check is real)', async () => {
      scriptRoundTrip();
      const client = new OpenAI({ baseURL: `${gw.textUrl}/v1`, apiKey: key, maxRetries: 0 });
      const first = await client.chat.completions.create({ model: 'gemini-3-pro-preview', messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: [weatherTool] });
      const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      const stripped = call.id.replace(/__ts_.*$/, '');
      const refused = await client.chat.completions
        .create({
          model: 'gemini-3-pro-preview',
          tools: [weatherTool],
          messages: [
            { role: 'user', content: 'Weather in Oslo?' },
            { role: 'assistant', content: null, tool_calls: [{ ...call, id: stripped }] },
            { role: 'tool', tool_call_id: stripped, content: '{"temp":"7C"}' },
          ],
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      assert.ok(refused instanceof OpenAI.APIError, String(refused));
      assert.equal(refused.status, 400);
      assert.match(refused.message, /thought/i);
    });

    test('openai Responses: a signed function call, its output back, the upstream accepts it; a streamed answer', async () => {
      scriptRoundTrip();
      const client = new OpenAI({ baseURL: `${gw.textUrl}/v1`, apiKey: key, maxRetries: 0 });
      const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'get_weather', description: 'Current weather', strict: false, parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
      const first = await client.responses.create({ model: 'gemini-3-pro-preview', input: 'Weather in Oslo?', tools, store: false });
      const call = first.output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call')!;
      assert.ok(call, JSON.stringify(first.output));
      assert.equal(call.name, 'get_weather');
      assert.match(call.call_id, /__ts_/);
      const second = await client.responses.create({
        model: 'gemini-3-pro-preview',
        tools,
        store: false,
        input: [{ role: 'user', content: 'Weather in Oslo?' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: '{"temp":"7C"}' }],
      });
      assert.equal(second.output_text, 'It is {"temp":"7C"} in Oslo.');
      assertSignatureRestored();

      fake.reset();
      const stream = await client.responses.create({ model: 'gemini-2.5-flash', input: 'stream to responses', stream: true, store: false });
      let text = '';
      let completed: OpenAI.Responses.Response | undefined;
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') text += event.delta;
        if (event.type === 'response.completed') completed = event.response;
      }
      assert.equal(text, 'Fake Gemini heard: stream to responses');
      assert.equal(completed?.status, 'completed');
      assert.ok((completed?.usage?.input_tokens ?? 0) > 0);
    });

    test('openai embeddings from a Gemini embedding model: one batchEmbedContents call, floats and base64 (the SDK\'s default), usage estimated and recorded alike; token ids refused', async () => {
      const client = new OpenAI({ baseURL: `${gw.textUrl}/v1`, apiKey: key, maxRetries: 0 });
      const texts = ['alpha', 'beta gamma', 'delta'];
      // The SDK asks for base64 unless told otherwise and decodes it to numbers.
      const asBase64 = await client.embeddings.create({ model: 'gemini-embed', input: texts, dimensions: 4 });
      const sent = fake.last();
      assert.equal(sent.path, '/v1beta/models/gemini-embedding-001:batchEmbedContents');
      assert.equal(sent.headers['x-goog-api-key'], UPSTREAM_KEYS.UP_GEMINI);
      assert.deepEqual(sent.body, { requests: texts.map((text) => ({ model: 'models/gemini-embedding-001', content: { parts: [{ text }] }, outputDimensionality: 4 })) });
      assert.equal(asBase64.model, 'gemini-embed');
      assert.deepEqual(asBase64.data.map((d) => d.index), [0, 1, 2]);
      assert.deepEqual(asBase64.data.map((d) => d.embedding), texts.map((t) => embeddingFor(t, 4).map((v) => Math.fround(v))), 'the vectors as 32-bit floats, in input order');
      // 20 characters of input, four a token.
      assert.deepEqual(asBase64.usage, { prompt_tokens: 5, total_tokens: 5 });

      const asFloats = await client.embeddings.create({ model: 'gemini-embed', input: 'alpha', encoding_format: 'float' });
      assert.deepEqual(asFloats.data[0]!.embedding, embeddingFor('alpha', 8), 'floats exactly as the upstream sent them');
      assert.equal(fake.last().body.requests[0].outputDimensionality, undefined);

      const refused = await client.embeddings.create({ model: 'gemini-embed', input: [[1, 2, 3]] }).then(() => undefined, (error: unknown) => error);
      assert.ok(refused instanceof OpenAI.APIError, String(refused));
      assert.equal(refused.status, 400);
      assert.equal((refused.error as any)?.param, 'input[0]');
      assert.match(refused.message, /token ids cannot be embedded by a Gemini model; send the text instead/);
      assert.equal(fake.requests.filter((r) => r.action === 'batchEmbedContents').length, 2, 'the refused request never reached the upstream');

      const row = await waitFor(() => requestLogRows(gw).find((r) => r.model === 'gemini-embed' && r.status === 200 && r.input_tokens === 5), { what: 'the embeddings request in the request log', timeoutMs: 30_000 });
      assert.equal(row.path, '/v1/embeddings');
      assert.equal(row.provider, 'google');
    });
  });
});
