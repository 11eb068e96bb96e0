// The fake Gemini API (test/helpers/fake-gemini.ts) against Google's own client, the official
// @google/genai SDK (pinned 1.x, the last major that runs on Node 20), pointed at it with
// httpOptions.baseUrl: if the SDK reads every answer the fake gives, gateway tests that use the fake
// as an upstream test against the protocol Google's code speaks. Loopback only.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ApiError, FunctionCallingConfigMode, GoogleGenAI, type Content } from '@google/genai';
import { FakeGemini } from '../helpers/fake-gemini.ts';

describe('the fake Gemini API, read by @google/genai', () => {
  let fake: FakeGemini;
  let ai: GoogleGenAI;

  before(async () => {
    fake = await FakeGemini.start({ apiKeys: ['gemini-test-key'] });
    ai = new GoogleGenAI({ apiKey: 'gemini-test-key', httpOptions: { baseUrl: fake.url } });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.reset();
    fake.checkThoughtSignatures = false;
    fake.tokenCount = undefined;
  });

  test('generateContent: the scripted text, thought, finish reason and every usage class; the request as sent', async () => {
    fake.script({
      thought: 'The user wants a greeting.',
      text: 'Hello from the fake.',
      finishReason: 'MAX_TOKENS',
      usage: { promptTokenCount: 120, cachedContentTokenCount: 100, candidatesTokenCount: 5, thoughtsTokenCount: 7 },
    });
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'say hello',
      config: { systemInstruction: 'Be brief.', temperature: 0.2, maxOutputTokens: 64, thinkingConfig: { includeThoughts: true, thinkingBudget: 128 } },
    });
    assert.equal(response.text, 'Hello from the fake.');
    const parts = response.candidates?.[0]?.content?.parts ?? [];
    assert.deepEqual(parts[0], { text: 'The user wants a greeting.', thought: true });
    assert.equal(response.candidates?.[0]?.finishReason, 'MAX_TOKENS');
    assert.deepEqual(response.usageMetadata, { promptTokenCount: 120, cachedContentTokenCount: 100, candidatesTokenCount: 5, thoughtsTokenCount: 7, totalTokenCount: 132 });
    assert.equal(response.modelVersion, 'gemini-2.5-flash');
    assert.ok(response.responseId);

    const request = fake.last();
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/v1beta/models/gemini-2.5-flash:generateContent');
    assert.equal(request.action, 'generateContent');
    assert.equal(request.model, 'gemini-2.5-flash');
    assert.equal(request.headers['x-goog-api-key'], 'gemini-test-key');
    assert.equal(request.keySource, 'x-goog-api-key');
    assert.match(String(request.headers['x-goog-api-client']), /google-genai-sdk\/1\.52\.0/);
    assert.deepEqual(request.body.contents, [{ role: 'user', parts: [{ text: 'say hello' }] }]);
    assert.deepEqual(request.body.systemInstruction, { parts: [{ text: 'Be brief.' }], role: 'user' });
    assert.deepEqual(request.body.generationConfig, { temperature: 0.2, maxOutputTokens: 64, thinkingConfig: { includeThoughts: true, thinkingBudget: 128 } });
  });

  test('generateContent without a script: the echo answer with figures computed from the request', async () => {
    const response = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: 'ping' });
    assert.equal(response.text, 'Fake Gemini heard: ping');
    const usage = response.usageMetadata!;
    assert.ok(usage.promptTokenCount! > 0 && usage.candidatesTokenCount! > 0);
    assert.equal(usage.totalTokenCount, usage.promptTokenCount! + usage.candidatesTokenCount!);
  });

  test('generateContentStream: server-sent events with alt=sse, the text in pieces, usage complete on the last chunk', async () => {
    fake.script({ text: 'one two three four five', streamChunks: 4, usage: { promptTokenCount: 9, candidatesTokenCount: 5 } });
    const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'count' });
    const texts: string[] = [];
    const finishes: Array<string | undefined> = [];
    let lastUsage: unknown;
    for await (const chunk of stream) {
      texts.push(chunk.text ?? '');
      finishes.push(chunk.candidates?.[0]?.finishReason);
      lastUsage = chunk.usageMetadata;
    }
    assert.equal(texts.length, 4);
    assert.equal(texts.join(''), 'one two three four five');
    assert.deepEqual(finishes, [undefined, undefined, undefined, 'STOP']);
    assert.deepEqual(lastUsage, { promptTokenCount: 9, candidatesTokenCount: 5, totalTokenCount: 14 });
    assert.equal(fake.last().path, '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    assert.equal(fake.last().action, 'streamGenerateContent');
  });

  test('streamGenerateContent without alt=sse: one JSON array of the same chunks', async () => {
    fake.script({ text: 'abcdef', streamChunks: 2 });
    const response = await fetch(`${fake.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'gemini-test-key', 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
    });
    assert.equal(response.status, 200);
    assert.match(String(response.headers.get('content-type')), /^application\/json/);
    const chunks = JSON.parse(await response.text());
    assert.equal(chunks.length, 2);
    assert.deepEqual(chunks.map((c: any) => c.candidates[0].content.parts[0].text), ['abc', 'def']);
    assert.equal(chunks[1].candidates[0].finishReason, 'STOP');
  });

  test('streams as tests shape them: raw chunks (one without candidates, a signature in an empty text part), a text signature, a cut', async () => {
    fake.script({
      chunks: [
        { candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, index: 0 }] },
        { usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 } },
        { candidates: [{ content: { role: 'model', parts: [{ text: '', thoughtSignature: 'c2lnbmVk' }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } },
      ],
    });
    const raw: any[] = [];
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) raw.push(chunk);
    assert.equal(raw.length, 3);
    assert.equal(raw[1].candidates, undefined);
    assert.equal(raw[2].candidates[0].content.parts[0].thoughtSignature, 'c2lnbmVk');

    fake.script({ text: 'signed text', textSignature: true });
    const signed = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: 'x' });
    assert.ok(signed.candidates![0]!.content!.parts!.at(-1)!.thoughtSignature);

    fake.script({ text: 'cut short here', streamChunks: 3, stream: { then: 'destroy' } });
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'x' })) seen.push(chunk.text ?? '');
    });
    assert.equal(seen.join(''), 'cut short here', 'every chunk written before the cut arrived');
    assert.equal(await fake.last().raw.ended, 'destroyed-by-upstream');
  });

  test('countTokens: computed from the contents, or the figure a test sets', async () => {
    const counted = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'how many tokens is this' });
    assert.ok(counted.totalTokens! > 0);
    assert.equal(fake.last().path, '/v1beta/models/gemini-2.5-flash:countTokens');
    assert.deepEqual(fake.last().body, { contents: [{ role: 'user', parts: [{ text: 'how many tokens is this' }] }] });
    fake.tokenCount = 42;
    assert.equal((await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'x' })).totalTokens, 42);
  });

  test('embedContent, one text and several: the SDK calls batchEmbedContents; same text, same vector', async () => {
    const one = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: 'alpha' });
    assert.equal(one.embeddings?.length, 1);
    assert.equal(one.embeddings?.[0]?.values?.length, 8);
    assert.equal(fake.last().path, '/v1beta/models/gemini-embedding-001:batchEmbedContents');
    assert.deepEqual(fake.last().body.requests, [{ content: { parts: [{ text: 'alpha' }], role: 'user' }, model: 'models/gemini-embedding-001' }]);

    const many = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['alpha', 'beta', 'gamma'], config: { outputDimensionality: 4 } });
    assert.equal(many.embeddings?.length, 3);
    assert.ok(many.embeddings!.every((e) => e.values?.length === 4));
    assert.deepEqual(many.embeddings![0]!.values, one.embeddings![0]!.values!.slice(0, 4));
    assert.notDeepEqual(many.embeddings![1]!.values, many.embeddings![0]!.values);
  });

  test('embedContent as its own route (the SDK never calls it on the Gemini API): one vector', async () => {
    const response = await fetch(`${fake.url}/v1beta/models/text-embedding-004:embedContent?key=gemini-test-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: { parts: [{ text: 'alpha' }] } }),
    });
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.equal(body.embedding.values.length, 8);
    assert.equal(fake.last().keySource, 'query');
  });

  test('models.list pages through every model; models.get returns one resource', async () => {
    const names: string[] = [];
    for await (const model of await ai.models.list({ config: { pageSize: 5 } })) names.push(model.name!);
    assert.ok(names.length > 5, 'more than one page');
    assert.ok(names.includes('models/gemini-2.5-flash') && names.includes('models/gemini-embedding-001'));
    assert.equal(new Set(names).size, names.length);
    assert.ok(fake.requests.some((r) => r.path.includes('pageToken=')), 'the SDK followed nextPageToken');

    const model = await ai.models.get({ model: 'gemini-2.5-flash' });
    assert.equal(model.name, 'models/gemini-2.5-flash');
    assert.ok(model.supportedActions?.includes('generateContent'));
    assert.equal(fake.last().path, '/v1beta/models/gemini-2.5-flash');
  });

  test('a function call round trip: the signature comes back and is accepted; without it, 400 INVALID_ARGUMENT', async () => {
    fake.checkThoughtSignatures = true;
    const tools = [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather of a city', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }] }];
    const toolConfig = { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } };
    const first = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: 'weather in Paris?', config: { tools, toolConfig } });
    assert.deepEqual(first.functionCalls, [{ name: 'get_weather', args: { city: 'fake' } }]);
    assert.deepEqual(fake.last().body.toolConfig, { functionCallingConfig: { mode: 'ANY' } });
    const modelTurn = first.candidates![0]!.content! as Content;
    const signature = modelTurn.parts![0]!.thoughtSignature;
    assert.ok(signature, 'the function call part carries a thoughtSignature');
    assert.equal(fake.issuedSignatures.size, 1);

    const answer: Content = { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: 'sunny' } } }] };
    const history: Content[] = [{ role: 'user', parts: [{ text: 'weather in Paris?' }] }, modelTurn, answer];
    fake.script({ text: 'It is sunny in Paris.' });
    const second = await ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: history, config: { tools } });
    assert.equal(second.text, 'It is sunny in Paris.');
    assert.equal(fake.last().body.contents[1].parts[0].thoughtSignature, signature);
    assert.deepEqual(fake.last().body.contents[2].parts[0].functionResponse, { name: 'get_weather', response: { output: 'sunny' } });

    const unsigned: Content = { role: 'model', parts: [{ functionCall: modelTurn.parts![0]!.functionCall }] };
    await assert.rejects(
      ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: [history[0]!, unsigned, answer], config: { tools } }),
      (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.status, 400);
        assert.match(error.message, /INVALID_ARGUMENT/);
        assert.match(error.message, /missing a thought_signature/);
        return true;
      },
    );
    const forged: Content = { role: 'model', parts: [{ functionCall: modelTurn.parts![0]!.functionCall, thoughtSignature: 'c2tpcA==' }] };
    await assert.rejects(ai.models.generateContent({ model: 'gemini-3-pro-preview', contents: [history[0]!, forged, answer] }), (error: unknown) => error instanceof ApiError && error.status === 400);
  });

  test('the chats helper keeps the signed call in its history by itself', async () => {
    fake.checkThoughtSignatures = true;
    fake.script({ functionCalls: [{ name: 'lookup', args: { q: 'x' } }, { name: 'lookup', args: { q: 'y' } }] }, { text: 'done' });
    const chat = ai.chats.create({ model: 'gemini-3-pro-preview', config: { tools: [{ functionDeclarations: [{ name: 'lookup' }] }] } });
    const first = await chat.sendMessage({ message: 'look both up' });
    assert.equal(first.functionCalls?.length, 2);
    const parts = first.candidates![0]!.content!.parts!;
    assert.ok(parts[0]!.thoughtSignature, 'parallel calls: the first one is signed');
    assert.equal(parts[1]!.thoughtSignature, undefined, 'parallel calls: only the first one is signed');
    const second = await chat.sendMessage({
      message: [
        { functionResponse: { name: 'lookup', response: { output: 'X' } } },
        { functionResponse: { name: 'lookup', response: { output: 'Y' } } },
      ],
    });
    assert.equal(second.text, 'done');
    assert.equal(fake.last().body.contents[1].parts[0].thoughtSignature, parts[0]!.thoughtSignature);
  });

  test('errors in Gemini shape: wrong key 400 API_KEY_INVALID, no key 403, Bearer 401, unknown model 404, a scripted 429', async () => {
    const wrong = new GoogleGenAI({ apiKey: 'not-the-key', httpOptions: { baseUrl: fake.url } });
    await assert.rejects(wrong.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 400);
      assert.match(error.message, /API key not valid/);
      return true;
    });
    await assert.rejects(ai.models.generateContent({ model: 'gemini-9-ultra', contents: 'x' }), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 404);
      assert.match(error.message, /NOT_FOUND/);
      assert.match(error.message, /models\/gemini-9-ultra is not found/);
      return true;
    });
    fake.script({ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).' } });
    await assert.rejects(ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 429);
      assert.match(error.message, /RESOURCE_EXHAUSTED/);
      return true;
    });

    const post = (headers: Record<string, string>) =>
      fetch(`${fake.url}/v1beta/models/gemini-2.5-flash:generateContent`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"contents":[{"parts":[{"text":"x"}]}]}' });
    const none = await post({});
    assert.equal(none.status, 403);
    assert.equal((await none.json()).error.status, 'PERMISSION_DENIED');
    const bearer = await post({ authorization: 'Bearer gemini-test-key' });
    assert.equal(bearer.status, 401);
    assert.deepEqual(Object.keys((await bearer.json()).error).sort(), ['code', 'message', 'status']);
  });
});
