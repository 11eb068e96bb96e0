// The Gemini codec, one table per direction: requests decoded (Gemini client -> canonical) and
// encoded (canonical -> Gemini upstream), answers and streams both ways, and the refusals, each
// naming the field the client wrote.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Json } from '../../../core/protocol/chat-types.ts';
import { SseParser } from '../../../core/protocol/sse.ts';
import type { CanonicalAnswer, CanonicalRequest } from '../../../server/protocols/canonical/conversation.ts';
import { DEFAULT_TRANSLATION } from '../../../server/protocols/codec.ts';
import { callIdWithSignature, SKIP_SIGNATURE, splitCallId } from '../../../server/protocols/gemini/call-ids.ts';
import { decodeGeminiAnswer } from '../../../server/protocols/gemini/decode-answer.ts';
import { packThinking, unpackThinking } from '../../../server/protocols/gemini/packed-thinking.ts';
import { decodeGeminiRequest } from '../../../server/protocols/gemini/decode-request.ts';
import { geminiStreamToCanonical } from '../../../server/protocols/gemini/decode-stream.ts';
import { GEMINI_BATCH_EMBED_TO_OPENAI, GEMINI_EMBED_TO_OPENAI, OPENAI_EMBEDDINGS_TO_GEMINI } from '../../../server/protocols/gemini/embeddings.ts';
import { encodeGeminiAnswer } from '../../../server/protocols/gemini/encode-answer.ts';
import { encodeGeminiRequest } from '../../../server/protocols/gemini/encode-request.ts';
import { canonicalStreamToGemini } from '../../../server/protocols/gemini/encode-stream.ts';
import type { StreamEventOut, StreamTranslation } from '../../../server/protocols/shared/stream-types.ts';
import { TranslationError } from '../../../server/protocols/shared/translation-error.ts';
import { translatorBetween } from '../../../server/protocols/translation.ts';

const TARGET = { upstreamModel: 'gemini-up', settings: DEFAULT_TRANSLATION };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoK';
const SIG = 'CsYBAXLI2nz+/sig+w=='; // real signatures are standard base64, with + and / and padding
const user = (...parts: Json[]) => ({ role: 'user', parts });
const model = (...parts: Json[]) => ({ role: 'model', parts });

function refusal(run: () => unknown): TranslationError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof TranslationError, `a TranslationError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}

function runStream<S>(translation: StreamTranslation<S>, events: unknown[]): { events: any[]; complete: boolean } {
  let state = translation.initial({ created: 1700000000 });
  const out: StreamEventOut[] = [];
  for (const data of events) {
    const step = translation.next(state, { data });
    state = step.state;
    out.push(...step.events);
  }
  const end = translation.finish(state);
  out.push(...end.events);
  return { events: out.map((e) => e.data), complete: end.complete };
}

describe('call ids carry thought signatures', () => {
  test('a signature survives the id in the characters every protocol accepts', () => {
    const id = callIdWithSignature('call/1', SIG);
    assert.match(id, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(splitCallId(id), { id: 'call_1', signature: SIG });
    assert.deepEqual(splitCallId('toolu_01'), { id: 'toolu_01' });
    assert.equal(callIdWithSignature('c1', undefined), 'c1');
    for (const bytes of [1, 2, 3, 4, 200]) {
      const signature = Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 37 + 251) % 256)).toString('base64');
      assert.equal(splitCallId(callIdWithSignature('c', signature)).signature, signature, `${bytes} bytes`);
    }
  });
});

describe('Gemini request -> canonical', () => {
  const cases: Array<{ name: string; body: Json; expect: Partial<CanonicalRequest> & Json }> = [
    {
      name: 'text and a system instruction',
      body: { systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }, { text: 'Answer in French.' }] }, contents: [user({ text: 'hi' })] },
      expect: { system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Answer in French.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
    },
    {
      name: 'snake_case fields and a content without a role (the REST API accepts both)',
      body: { system_instruction: { parts: [{ text: 'S' }] }, contents: [{ parts: [{ text: 'hi' }] }], generation_config: { maxOutputTokens: 9 } },
      expect: { system: [{ type: 'text', text: 'S' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], max_tokens: 9 },
    },
    {
      name: 'an inline image and an inline PDF',
      body: { contents: [user({ text: 'what is this?' }, { inlineData: { mimeType: 'image/png', data: PNG } }, { inline_data: { mime_type: 'application/pdf', data: PDF } })] },
      expect: {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
            ],
          },
        ],
      },
    },
    {
      name: 'an https file and a user turn split in two contents (merged)',
      body: { contents: [user({ fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.test/cat.jpg' } }), user({ text: 'describe' })] },
      expect: { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.test/cat.jpg' } }, { type: 'text', text: 'describe' }] }] },
    },
    {
      name: 'thoughts: a model thought with its signature is thinking; a signature-only part and a user "thought" are dropped',
      body: { contents: [user({ text: 'q' }), model({ text: 'pondering', thought: true, thoughtSignature: SIG }, { text: 'answer' }, { thoughtSignature: SIG }), user({ text: 'ignored?', thought: true }, { text: 'next' })] },
      expect: {
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'pondering', signature: SIG }, { type: 'text', text: 'answer' }] },
          { role: 'user', content: [{ type: 'text', text: 'next' }] },
        ],
      },
    },
    {
      name: 'function calls and responses matched by id; the signature rides in the id',
      body: {
        contents: [
          user({ text: 'weather in Oslo and Rome?' }),
          model({ functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: SIG }, { functionCall: { id: 'c2', name: 'get_weather', args: { city: 'Rome' } } }),
          user({ functionResponse: { id: 'c2', name: 'get_weather', response: { temp: 20 } } }, { functionResponse: { id: 'c1', name: 'get_weather', response: { error: 'no station' } } }),
        ],
      },
      expect: {
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'weather in Oslo and Rome?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: callIdWithSignature('c1', SIG), name: 'get_weather', input: { city: 'Oslo' } },
              { type: 'tool_use', id: 'c2', name: 'get_weather', input: { city: 'Rome' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'c2', content: '{"temp":20}' },
              { type: 'tool_result', tool_use_id: callIdWithSignature('c1', SIG), content: 'no station', is_error: true },
            ],
          },
        ],
      },
    },
    {
      name: 'function calls without ids (Gemini 2.x) matched to responses by name, in order',
      body: {
        contents: [
          user({ text: 'list two dirs' }),
          model({ functionCall: { name: 'ls', args: { dir: 'a' } }, thoughtSignature: SIG }, { functionCall: { name: 'ls', args: { dir: 'b' } } }, { functionCall: { name: 'pwd', args: {} } }),
          user({ functionResponse: { name: 'pwd', response: { output: '/w' } } }, { functionResponse: { name: 'ls', response: { output: 'x' } } }, { functionResponse: { name: 'ls', response: { output: 'y', exitCode: 0 } } }),
        ],
      },
      expect: {
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'list two dirs' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: callIdWithSignature('call_0', SIG), name: 'ls', input: { dir: 'a' } },
              { type: 'tool_use', id: 'call_1', name: 'ls', input: { dir: 'b' } },
              { type: 'tool_use', id: 'call_2', name: 'pwd', input: {} },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'call_2', content: '/w' },
              { type: 'tool_result', tool_use_id: callIdWithSignature('call_0', SIG), content: 'x' },
              { type: 'tool_result', tool_use_id: 'call_1', content: '{"output":"y","exitCode":0}' },
            ],
          },
        ],
      },
    },
    {
      name: 'tools: OpenAPI `parameters` (upper-case types, nested) lowered to JSON Schema; `parametersJsonSchema` kept; no parameters an empty object',
      body: {
        contents: [user({ text: 'hi' })],
        tools: [
          {
            functionDeclarations: [
              { name: 'search', description: 'Search files', parameters: { type: 'OBJECT', properties: { query: { type: 'STRING', description: 'q' }, paths: { type: 'ARRAY', items: { type: 'STRING' } }, opts: { type: 'OBJECT', properties: { depth: { type: 'INTEGER' } } } }, required: ['query'] } },
              { name: 'edit', parametersJsonSchema: { type: 'object', properties: { file: { type: ['string', 'null'] } }, additionalProperties: false } },
            ],
          },
          { function_declarations: [{ name: 'now' }] },
        ],
      },
      expect: {
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        tools: [
          { name: 'search', description: 'Search files', input_schema: { type: 'object', properties: { query: { type: 'string', description: 'q' }, paths: { type: 'array', items: { type: 'string' } }, opts: { type: 'object', properties: { depth: { type: 'integer' } } } }, required: ['query'] } },
          { name: 'edit', input_schema: { type: 'object', properties: { file: { type: ['string', 'null'] } }, additionalProperties: false } },
          { name: 'now', input_schema: { type: 'object', properties: {} } },
        ],
      },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(decodeGeminiRequest(c.body), c.expect);
    });
  }

  const TOOLS = [{ functionDeclarations: [{ name: 'a' }, { name: 'b' }] }];
  test('a thought streamed in pieces (consecutive parts and contents, the signature last) comes back as one signed thinking block', () => {
    const decoded = decodeGeminiRequest({
      contents: [
        user({ text: 'q' }),
        model({ text: 'Let me ', thought: true }, { text: 'think.', thought: true }),
        model({ text: '', thought: true, thoughtSignature: SIG }, { text: 'Done.' }),
        user({ text: 'next' }),
      ],
    });
    assert.deepEqual((decoded.messages as Json[])[1], { role: 'assistant', content: [{ type: 'thinking', thinking: 'Let me think.', signature: SIG }, { type: 'text', text: 'Done.' }] });
  });

  test('two signed thoughts stay two blocks', () => {
    const decoded = decodeGeminiRequest({ contents: [user({ text: 'q' }), model({ text: 'a', thought: true, thoughtSignature: 's1' }, { text: 'b', thought: true, thoughtSignature: 's2' })] });
    assert.deepEqual((decoded.messages as Json[])[1]!.content, [
      { type: 'thinking', thinking: 'a', signature: 's1' },
      { type: 'thinking', thinking: 'b', signature: 's2' },
    ]);
  });

  const modes: Array<[string, Json, unknown]> = [
    ['AUTO', { mode: 'AUTO' }, { type: 'auto' }],
    ['VALIDATED', { mode: 'VALIDATED' }, { type: 'auto' }],
    ['NONE', { mode: 'NONE' }, { type: 'none' }],
    ['ANY', { mode: 'ANY' }, { type: 'any' }],
    ['ANY with one allowed function', { mode: 'ANY', allowedFunctionNames: ['b'] }, { type: 'tool', name: 'b' }],
    ['no mode', {}, undefined],
  ];
  for (const [name, config, expected] of modes) {
    test(`toolConfig.functionCallingConfig ${name}`, () => {
      assert.deepEqual(decodeGeminiRequest({ contents: [user({ text: 'x' })], tools: TOOLS, toolConfig: { functionCallingConfig: config } }).tool_choice, expected);
    });
  }

  test('Gemini\'s {output}/{error} responses travel as their text and are wrapped back the same way; JSON-object output text stays wrapped', () => {
    const responses = [{ output: 'line 1\nline 2' }, { error: 'not found' }, { output: '{"a":1}' }, { output: '' }, { temp: 7 }];
    const body = {
      contents: [
        user({ text: 'go' }),
        model(...responses.map((_, i) => ({ functionCall: { id: `c${i}`, name: 'f', args: {} } }))),
        user(...responses.map((response, i) => ({ functionResponse: { id: `c${i}`, name: 'f', response } }))),
      ],
    };
    const decoded = decodeGeminiRequest(body);
    assert.deepEqual((decoded.messages as Json[])[2]!.content, [
      { type: 'tool_result', tool_use_id: 'c0', content: 'line 1\nline 2' },
      { type: 'tool_result', tool_use_id: 'c1', content: 'not found', is_error: true },
      { type: 'tool_result', tool_use_id: 'c2', content: '{"output":"{\\"a\\":1}"}' },
      { type: 'tool_result', tool_use_id: 'c3', content: '' },
      { type: 'tool_result', tool_use_id: 'c4', content: '{"temp":7}' },
    ]);
    const encoded = encodeGeminiRequest(decoded, TARGET) as any;
    assert.deepEqual(encoded.contents[2].parts.map((p: any) => p.functionResponse.response), responses);
  });

  test('ANY among several allowed functions: the tools offered narrowed to those (no wider choice)', () => {
    const decoded = decodeGeminiRequest({ contents: [user({ text: 'x' })], tools: [{ functionDeclarations: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }], toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'c'] } } });
    assert.deepEqual(decoded.tool_choice, { type: 'any' });
    assert.deepEqual((decoded.tools as Json[]).map((t) => t.name), ['a', 'c']);
    const error = refusal(() => decodeGeminiRequest({ contents: [user({ text: 'x' })], tools: TOOLS, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'zzz'] } } }));
    assert.equal(error.field, 'toolConfig.functionCallingConfig.allowedFunctionNames');
  });

  test('responseJsonSchema is JSON Schema already: kept as written (a const object with a `type` is not rewritten)', () => {
    const schema = { type: 'object', properties: { event: { const: { type: 'Click' } }, kind: { type: 'string', default: 'A' } } };
    assert.deepEqual(decodeGeminiRequest({ contents: [user({ text: 'x' })], generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema } }).output_config, { format: { type: 'json_schema', schema } });
  });

  const configs: Array<[string, Json, Json]> = [
    ['limits, sampling and stop sequences', { maxOutputTokens: 256, temperature: 0.2, topP: 0.9, topK: 40, stopSequences: ['###'], candidateCount: 1, responseModalities: ['TEXT'] }, { max_tokens: 256, temperature: 0.2, top_p: 0.9, top_k: 40, stop_sequences: ['###'] }],
    ['thinkingBudget 0: thinking disabled', { thinkingConfig: { thinkingBudget: 0 } }, { thinking: { type: 'disabled' } }],
    ['thinkingBudget 2048: thinking with that budget', { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } }, { thinking: { type: 'enabled', budget_tokens: 2048 } }],
    ['thinkingBudget -1 (dynamic): adaptive', { thinkingConfig: { thinkingBudget: -1 } }, { thinking: { type: 'adaptive' } }],
    ['includeThoughts alone: adaptive', { thinkingConfig: { includeThoughts: true } }, { thinking: { type: 'adaptive' } }],
    ['thinkingLevel HIGH: effort high', { thinkingConfig: { thinkingLevel: 'HIGH' } }, { output_config: { effort: 'high' } }],
    ['responseJsonSchema: a JSON-schema output format', { responseMimeType: 'application/json', responseJsonSchema: { type: 'object', properties: { n: { type: 'number' } } } }, { output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: { n: { type: 'number' } } } } } }],
    ['responseSchema (OpenAPI) lowered', { responseMimeType: 'application/json', responseSchema: { type: 'OBJECT', properties: { n: { type: 'NUMBER' } } } }, { output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: { n: { type: 'number' } } } } } }],
    ['inert values accepted', { presencePenalty: 0, frequencyPenalty: 0, responseLogprobs: false, mediaResolution: 'MEDIA_RESOLUTION_LOW' }, {}],
  ];
  for (const [name, config, expected] of configs) {
    test(`generationConfig: ${name}`, () => {
      const { messages: _m, ...rest } = decodeGeminiRequest({ contents: [user({ text: 'x' })], generationConfig: config });
      assert.deepEqual(rest, expected);
    });
  }

  const refusals: Array<[string, Json, string]> = [
    ['a seed', { contents: [user({ text: 'x' })], generationConfig: { seed: 42 } }, 'generationConfig.seed'],
    ['an unknown generation setting', { contents: [user({ text: 'x' })], generationConfig: { enableEnhancedCivicAnswers: true } }, 'generationConfig.enableEnhancedCivicAnswers'],
    ['a presence penalty', { contents: [user({ text: 'x' })], generationConfig: { presencePenalty: 0.5 } }, 'generationConfig.presencePenalty'],
    ['two candidates', { contents: [user({ text: 'x' })], generationConfig: { candidateCount: 2 } }, 'generationConfig.candidateCount'],
    ['image output', { contents: [user({ text: 'x' })], generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } }, 'generationConfig.responseModalities'],
    ['JSON mode without a schema', { contents: [user({ text: 'x' })], generationConfig: { responseMimeType: 'application/json' } }, 'generationConfig.responseMimeType'],
    ['Google Search grounding', { contents: [user({ text: 'x' })], tools: [{ googleSearch: {} }] }, 'tools[0].googleSearch'],
    ['code execution next to functions', { contents: [user({ text: 'x' })], tools: [{ functionDeclarations: [{ name: 'a' }] }, { codeExecution: {} }] }, 'tools[1].codeExecution'],
    ['a function without a name', { contents: [user({ text: 'x' })], tools: [{ functionDeclarations: [{ description: 'd' }] }] }, 'tools[0].functionDeclarations[0].name'],
    ['cached content', { contents: [user({ text: 'x' })], cachedContent: 'cachedContents/abc' }, 'cachedContent'],
    ['an unknown top-level field', { contents: [user({ text: 'x' })], frobnicate: 1 }, 'frobnicate'],
    ['no contents', { contents: [] }, 'contents'],
    ['a system role in contents', { contents: [{ role: 'system', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
    ['audio inline data', { contents: [user({ text: 'x' }, { inlineData: { mimeType: 'audio/wav', data: 'AAAA' } })] }, 'contents[0].parts[1].inlineData.mimeType'],
    ['a file uploaded to Google', { contents: [user({ fileData: { mimeType: 'application/pdf', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } }, { fileData: { mimeType: 'image/png', fileUri: 'gs://bucket/x.png' } })] }, 'contents[0].parts[1].fileData.fileUri'],
    ['executable code parts', { contents: [model({ executableCode: { language: 'PYTHON', code: 'print(1)' } })] }, 'contents[0].parts[0]'],
    ['a function response without its call', { contents: [user({ functionResponse: { name: 'ls', response: {} } })] }, 'contents[0].parts[0].functionResponse'],
    ['a function call without a name', { contents: [model({ functionCall: { args: {} } })] }, 'contents[0].parts[0].functionCall.name'],
    ['a non-text system part', { systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] }, contents: [user({ text: 'x' })] }, 'systemInstruction.parts[0]'],
    ['an unknown calling mode', { contents: [user({ text: 'x' })], tools: TOOLS, toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }, 'toolConfig.functionCallingConfig.mode'],
  ];
  for (const [name, body, field] of refusals) {
    test(`refused, naming the field: ${name} (${field})`, () => {
      const error = refusal(() => decodeGeminiRequest(body));
      assert.equal(error.field, field);
      assert.ok(error.message.includes(`\`${field}\``), error.message);
    });
  }
});

describe('canonical request -> Gemini', () => {
  test('system, text, images, a signed call restored from its id, a call of another model with the placeholder, responses named after their calls', () => {
    const signed = callIdWithSignature('c1', SIG);
    const request: CanonicalRequest = {
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }, { type: 'image', source: { type: 'url', url: 'https://example.test/a.png' } }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'anthropic-sig' }, { type: 'text', text: 'Calling.' }, { type: 'tool_use', id: signed, name: 'ls', input: { dir: '.' } }, { type: 'tool_use', id: 'c2', name: 'cat', input: { file: 'a' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: signed, content: '{"files":["a"]}' },
            { type: 'tool_result', tool_use_id: 'c2', content: [{ type: 'text', text: 'plain text' }] },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01ABC', name: 'ls', input: {} }, { type: 'tool_use', id: 'toolu_02DEF', name: 'ls', input: { dir: 'b' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01ABC', content: 'denied', is_error: true }, { type: 'tool_result', tool_use_id: 'toolu_02DEF', content: '' }] },
      ],
    };
    assert.deepEqual(encodeGeminiRequest(request, TARGET), {
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: PNG } }, { fileData: { fileUri: 'https://example.test/a.png' } }] },
        { role: 'model', parts: [{ text: 'Calling.' }, { functionCall: { id: 'c1', name: 'ls', args: { dir: '.' } }, thoughtSignature: SIG }, { functionCall: { id: 'c2', name: 'cat', args: { file: 'a' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'ls', response: { files: ['a'] } } }, { functionResponse: { id: 'c2', name: 'cat', response: { output: 'plain text' } } }] },
        { role: 'model', parts: [{ functionCall: { id: 'toolu_01ABC', name: 'ls', args: {} }, thoughtSignature: SKIP_SIGNATURE }, { functionCall: { id: 'toolu_02DEF', name: 'ls', args: { dir: 'b' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'toolu_01ABC', name: 'ls', response: { error: 'denied' } } }, { functionResponse: { id: 'toolu_02DEF', name: 'ls', response: { output: '' } } }] },
      ],
    });
  });

  const choices: Array<[string, unknown, Json]> = [
    ['auto', { type: 'auto' }, { mode: 'AUTO' }],
    ['any', { type: 'any' }, { mode: 'ANY' }],
    ['none', { type: 'none' }, { mode: 'NONE' }],
    ['a named tool', { type: 'tool', name: 'get_weather' }, { mode: 'ANY', allowedFunctionNames: ['get_weather'] }],
  ];
  for (const [name, choice, expected] of choices) {
    test(`tool_choice ${name} -> functionCallingConfig`, () => {
      const out = encodeGeminiRequest({ messages: [{ role: 'user', content: 'x' }], tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }], tool_choice: choice as never }, TARGET);
      assert.deepEqual(out.toolConfig, { functionCallingConfig: expected });
      assert.deepEqual(out.tools, [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: {} } }] }]);
    });
  }

  const generation: Array<[string, Partial<CanonicalRequest>, Json | undefined]> = [
    ['limits and sampling', { max_tokens: 100, temperature: 1.5, top_p: 0.5, top_k: 3, stop_sequences: ['END'] }, { maxOutputTokens: 100, temperature: 1.5, topP: 0.5, topK: 3, stopSequences: ['END'] }],
    ['thinking disabled', { thinking: { type: 'disabled' } }, { thinkingConfig: { thinkingBudget: 0 } }],
    ['thinking with a budget', { thinking: { type: 'enabled', budget_tokens: 4096 } }, { thinkingConfig: { thinkingBudget: 4096, includeThoughts: true } }],
    ['adaptive thinking, omitted display', { thinking: { type: 'adaptive', display: 'omitted' } as never }, { thinkingConfig: { includeThoughts: false } }],
    ['an effort', { output_config: { effort: 'xhigh' } } as never, { thinkingConfig: { thinkingLevel: 'high' } }],
    ['a JSON schema output', { output_config: { format: { type: 'json_schema', schema: { type: 'object' } } } } as never, { responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } }],
    ['nothing', {}, undefined],
  ];
  for (const [name, fields, expected] of generation) {
    test(`generationConfig from ${name}`, () => {
      assert.deepEqual(encodeGeminiRequest({ messages: [{ role: 'user', content: 'x' }], ...fields }, TARGET).generationConfig, expected);
    });
  }
  test('an effort for a Gemini 2.x model is a thinking budget (they refuse a thinking level)', () => {
    const target = { ...TARGET, upstreamModel: 'gemini-2.5-flash' };
    assert.deepEqual(encodeGeminiRequest({ messages: [{ role: 'user', content: 'x' }], output_config: { effort: 'medium' } } as never, target).generationConfig, { thinkingConfig: { thinkingBudget: 8192 } });
  });

  const refusals: Array<[string, CanonicalRequest, string]> = [
    ['a result for an unknown call', { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nope', content: 'x' }] }] }, 'messages[0].content[0].tool_use_id'],
    ['an image in a tool result', { messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shot', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] }] }] } as never, 'messages[1].content[0].content[0].type'],
    ['a server tool', { messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'web_search_20250305', name: 'web_search' }] } as never, 'tools[0].type'],
    ['a priority service tier', { messages: [{ role: 'user', content: 'x' }], service_tier: 'priority' } as never, 'service_tier'],
    ['an OpenAI-family extra with a value', { messages: [{ role: 'user', content: 'x' }], extras: { openai: { verbosity: { field: 'text.verbosity', value: 'high' } } } }, 'text.verbosity'],
  ];
  for (const [name, request, field] of refusals) {
    test(`refused, naming the field: ${name}`, () => {
      assert.equal(refusal(() => encodeGeminiRequest(request, TARGET)).field, field);
    });
  }

  test('unsigned reasoning from an OpenAI-family client is not needed by Gemini and passes', () => {
    const out = encodeGeminiRequest({ messages: [{ role: 'user', content: 'x' }], extras: { openai: { 'unsigned_thinking:input[1]': { field: 'input[1].encrypted_content', value: 'text' } } } }, TARGET);
    assert.deepEqual(out.contents, [{ role: 'user', parts: [{ text: 'x' }] }]);
  });
});

describe('Gemini answer -> canonical -> Gemini', () => {
  const answer = (parts: Json[], finishReason?: string, usageMetadata: Json = { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 }, extra: Json = {}) => ({
    candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    usageMetadata,
    modelVersion: 'gemini-2.5-flash',
    responseId: 'resp-1',
    ...extra,
  });

  test('text, a thought with its signature, every usage class', () => {
    const decoded = decodeGeminiAnswer(
      answer([{ text: 'mulling', thought: true, thoughtSignature: SIG }, { text: 'Hello ' }, { text: 'there.', thoughtSignature: 'text-sig' }], 'STOP', {
        promptTokenCount: 120,
        cachedContentTokenCount: 100,
        candidatesTokenCount: 5,
        thoughtsTokenCount: 7,
        toolUsePromptTokenCount: 3,
        totalTokenCount: 135,
      }),
    );
    assert.deepEqual(decoded, {
      id: 'resp-1',
      type: 'message',
      role: 'assistant',
      model: 'gemini-2.5-flash',
      content: [{ type: 'thinking', thinking: 'mulling', signature: SIG }, { type: 'text', text: 'Hello there.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 23, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 100, output_tokens_details: { thinking_tokens: 7 } },
    });
    assert.deepEqual(encodeGeminiAnswer(decoded), {
      candidates: [{ content: { role: 'model', parts: [{ text: 'mulling', thought: true, thoughtSignature: SIG }, { text: 'Hello there.' }] }, index: 0, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 123, candidatesTokenCount: 5, totalTokenCount: 135, cachedContentTokenCount: 100, thoughtsTokenCount: 7 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-1',
    });
  });

  const finishes: Array<[string, Json, string]> = [
    ['STOP', answer([{ text: 'x' }], 'STOP'), 'end_turn'],
    ['STOP with a call: tool_use', answer([{ functionCall: { name: 'ls', args: {} }, thoughtSignature: SIG }], 'STOP'), 'tool_use'],
    ['MAX_TOKENS', answer([{ text: 'x' }], 'MAX_TOKENS'), 'max_tokens'],
    ['MAX_TOKENS with a call', answer([{ functionCall: { name: 'ls', args: {} } }], 'MAX_TOKENS'), 'max_tokens'],
    ['SAFETY', answer([], 'SAFETY'), 'refusal'],
    ['RECITATION', answer([{ text: 'x' }], 'RECITATION'), 'refusal'],
    ['PROHIBITED_CONTENT', answer([], 'PROHIBITED_CONTENT'), 'refusal'],
    ['a blocked prompt', { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } }, 'refusal'],
    ['no finish reason', answer([{ text: 'x' }]), 'end_turn'],
  ];
  for (const [name, body, stop] of finishes) {
    test(`finish reason ${name} -> ${stop}`, () => {
      assert.equal(decodeGeminiAnswer(body).stop_reason, stop);
    });
  }

  test('a call with its signature: the id carries it; the call is sent to a Gemini client with that id', () => {
    const decoded = decodeGeminiAnswer(answer([{ functionCall: { id: 'fc1', name: 'ls', args: { dir: '.' } }, thoughtSignature: SIG }, { functionCall: { name: 'pwd', args: {} } }], 'STOP'));
    assert.deepEqual(decoded.content, [
      { type: 'tool_use', id: callIdWithSignature('fc1', SIG), name: 'ls', input: { dir: '.' } },
      { type: 'tool_use', id: 'call_resp-1_1', name: 'pwd', input: {} },
    ]);
    assert.equal(splitCallId((decoded.content[0] as { id: string }).id).signature, SIG);
    // Gemini API models send calls without ids: the ids made for them differ from answer to answer.
    const other = decodeGeminiAnswer({ ...answer([{ functionCall: { name: 'pwd', args: {} } }], 'STOP'), responseId: 'resp-2' });
    assert.equal((other.content[0] as { id: string }).id, 'call_resp-2_0');
  });

  const encodeStops: Array<[string, string]> = [
    ['end_turn', 'STOP'],
    ['tool_use', 'STOP'],
    ['stop_sequence', 'STOP'],
    ['max_tokens', 'MAX_TOKENS'],
    ['model_context_window_exceeded', 'MAX_TOKENS'],
    ['refusal', 'SAFETY'],
  ];
  for (const [stop, finish] of encodeStops) {
    test(`stop reason ${stop} -> finishReason ${finish}`, () => {
      const canonical: CanonicalAnswer = { id: 'm', type: 'message', role: 'assistant', model: 'c', content: [{ type: 'text', text: 'x', citations: null } as never], stop_reason: stop as never, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } as never };
      assert.equal((encodeGeminiAnswer(canonical) as any).candidates[0].finishReason, finish);
    });
  }

  test('messages usage with both cache-write classes -> Gemini usage (writes count as prompt)', () => {
    const canonical = {
      id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: { a: 1 } }], stop_reason: 'tool_use', stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 50, cache_creation_input_tokens: 30, cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 } },
    } as unknown as CanonicalAnswer;
    const encoded = encodeGeminiAnswer(canonical) as any;
    assert.deepEqual(encoded.usageMetadata, { promptTokenCount: 90, candidatesTokenCount: 4, totalTokenCount: 94, cachedContentTokenCount: 50 });
    assert.deepEqual(encoded.candidates[0].content.parts, [{ functionCall: { id: 'toolu_1', name: 'ls', args: { a: 1 } } }]);
  });

  test('an empty text part (Gemini\'s closing part, often carrying only a signature) is no block', () => {
    const decoded = decodeGeminiAnswer(answer([{ functionCall: { name: 'ls', args: {} }, thoughtSignature: SIG }, { text: '', thoughtSignature: 'closing' }], 'STOP'));
    assert.deepEqual(decoded.content.map((b) => b.type), ['tool_use']);
  });

  test('an upstream\'s thinking signature rides on the thought part, and comes back from the client as signed thinking', () => {
    const canonical = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'thinking', thinking: 'hmm', signature: 'anthropic-sig' }, { type: 'text', text: 'Hi' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } as unknown as CanonicalAnswer;
    const parts = (encodeGeminiAnswer(canonical) as any).candidates[0].content.parts;
    assert.deepEqual(parts, [{ text: 'hmm', thought: true, thoughtSignature: 'anthropic-sig' }, { text: 'Hi' }]);
    const back = decodeGeminiRequest({ contents: [user({ text: 'q' }), model(...parts), user({ text: 'more' })] });
    assert.deepEqual((back.messages as Json[])[1], { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'anthropic-sig' }, { type: 'text', text: 'Hi' }] });
  });

  test('thinking before a call is packed into the call\'s signature; a client that drops thought parts (the Gemini CLI) still sends it back', () => {
    const canonical = {
      id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 },
      content: [
        { type: 'thinking', thinking: 'Two lookups.', signature: 'sig-A' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'toolu_A', name: 'ls', input: { dir: 'a' } },
        { type: 'tool_use', id: 'toolu_B', name: 'ls', input: { dir: 'b' } },
      ],
    } as unknown as CanonicalAnswer;
    const parts = (encodeGeminiAnswer(canonical) as any).candidates[0].content.parts;
    const packed = parts[2].thoughtSignature;
    assert.deepEqual(unpackThinking(packed), [{ type: 'thinking', thinking: 'Two lookups.', signature: 'sig-A' }, { type: 'redacted_thinking', data: 'opaque' }]);
    assert.equal(parts[3].thoughtSignature, undefined, 'parallel calls: the first carries it');
    assert.equal(unpackThinking(SIG), undefined, 'Gemini\'s own signatures are no pack');

    const withoutThoughts = parts.filter((p: any) => !p.thought);
    const expected = [
      { type: 'thinking', thinking: 'Two lookups.', signature: 'sig-A' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'toolu_A', name: 'ls', input: { dir: 'a' } },
      { type: 'tool_use', id: 'toolu_B', name: 'ls', input: { dir: 'b' } },
    ];
    const results = user({ functionResponse: { id: 'toolu_A', name: 'ls', response: { output: 'x' } } }, { functionResponse: { id: 'toolu_B', name: 'ls', response: { output: 'y' } } });
    for (const sent of [withoutThoughts, parts]) {
      const decoded = decodeGeminiRequest({ contents: [user({ text: 'q' }), model(...sent), results] });
      assert.deepEqual((decoded.messages as Json[])[1]!.content, expected, sent === parts ? 'thought parts kept too: no duplicate' : 'thought parts dropped');
      assert.deepEqual(((decoded.messages as Json[])[2]!.content as Json[]).map((b) => b.tool_use_id), ['toolu_A', 'toolu_B']);
    }
    // The CLI's streamed history: one content per chunk, the call's chunk alone.
    const streamed = decodeGeminiRequest({ contents: [user({ text: 'q' }), model({ text: 'Looking.' }), model(parts[2]), model(parts[3]), results] });
    assert.deepEqual((streamed.messages as Json[])[1]!.content, expected);
  });

  test('a part with no canonical equivalent fails the answer, naming it', () => {
    const error = refusal(() => decodeGeminiAnswer(answer([{ executableCode: { language: 'PYTHON', code: '1' } }], 'STOP')));
    assert.equal(error.side, 'answer');
    assert.equal(error.field, 'candidates[0].content.parts[0]');
  });
});

describe('Gemini stream -> canonical events', () => {
  const chunk = (parts: Json[], extra: Json = {}) => ({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }], modelVersion: 'gemini-2.5-flash', responseId: 'r1' });

  test('text split over chunks is one block; usage from the last chunk', () => {
    const { events, complete } = runStream(geminiStreamToCanonical, [
      { ...chunk([{ text: 'Hel' }]), usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 } },
      chunk([{ text: 'lo ' }]),
      { ...chunk([{ text: 'world' }], { finishReason: 'STOP' }), usageMetadata: { promptTokenCount: 8, cachedContentTokenCount: 4, candidatesTokenCount: 3, totalTokenCount: 11 } },
    ]);
    assert.equal(complete, true);
    assert.deepEqual(events, [
      { type: 'message_start', message: { id: 'r1', type: 'message', role: 'assistant', model: 'gemini-2.5-flash', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 8, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'world' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { input_tokens: 4, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 4 } },
      { type: 'message_stop' },
    ]);
  });

  test('thoughts with their signature, then text, then a signed function call: tool_use', () => {
    const { events, complete } = runStream(geminiStreamToCanonical, [
      chunk([{ text: 'Let me ', thought: true }]),
      chunk([{ text: 'check.', thought: true, thoughtSignature: SIG }]),
      chunk([{ text: 'Checking.' }]),
      chunk([{ functionCall: { name: 'ls', args: { dir: '.' } }, thoughtSignature: 'call-sig' }]),
      { ...chunk([], { finishReason: 'STOP' }), usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 9, thoughtsTokenCount: 4, totalTokenCount: 18 } },
    ]);
    assert.equal(complete, true);
    assert.deepEqual(events.slice(1), [
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'check.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIG } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Checking.' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: callIdWithSignature('call_r1_0', 'call-sig'), name: 'ls', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"dir":"."}' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 5, output_tokens: 13, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens_details: { thinking_tokens: 4 } } },
      { type: 'message_stop' },
    ]);
  });

  test('two calls in one chunk without ids get distinct ids and indices', () => {
    const { events } = runStream(geminiStreamToCanonical, [chunk([{ functionCall: { name: 'a', args: {} }, thoughtSignature: SIG }, { functionCall: { name: 'b', args: { x: 1 } } }], { finishReason: 'STOP' })]);
    const starts = events.filter((e) => e.type === 'content_block_start').map((e) => [e.index, e.content_block.id, e.content_block.name]);
    assert.deepEqual(starts, [
      [0, callIdWithSignature('call_r1_0', SIG), 'a'],
      [1, 'call_r1_1', 'b'],
    ]);
  });

  test('a stream cut before the finish reason is incomplete', () => {
    const { events, complete } = runStream(geminiStreamToCanonical, [chunk([{ text: 'partial' }])]);
    assert.equal(complete, false);
    assert.ok(!events.some((e) => e.type === 'message_stop'));
  });

  test('an error chunk closes the open block and ends the stream with an error event', () => {
    const { events, complete } = runStream(geminiStreamToCanonical, [chunk([{ text: 'par' }]), { error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' } }, chunk([{ text: 'ignored' }])]);
    assert.deepEqual(events.slice(-2), [
      { type: 'content_block_stop', index: 0 },
      { type: 'error', error: { type: 'rate_limit_error', message: 'Resource exhausted' } },
    ]);
    assert.equal(complete, true);
  });
});

describe('canonical events -> Gemini stream', () => {
  const start = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-up', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, cache_read_input_tokens: 20, output_tokens: 1 } } };

  test('text deltas as chunks, a thought, a call sent whole when its arguments are complete, usage and finish in the last chunk', () => {
    const { events, complete } = runStream(canonicalStreamToGemini, [
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'anthropic-sig' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'ping' },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi ' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'there' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"dir":' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"."}' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 15 } },
      { type: 'message_stop' },
    ]);
    assert.equal(complete, true);
    const parts = events.map((e) => e.candidates[0].content.parts);
    assert.deepEqual(parts, [
      [{ text: 'hmm', thought: true }],
      [{ text: '', thought: true, thoughtSignature: 'anthropic-sig' }],
      [{ text: 'Hi ' }],
      [{ text: 'there' }],
      // The thinking rides on the call too, for clients that drop thought parts from their history.
      [{ functionCall: { id: 'toolu_1', name: 'ls', args: { dir: '.' } }, thoughtSignature: packThinking([{ type: 'thinking', thinking: 'hmm', signature: 'anthropic-sig' }]) }],
      [{ text: '' }],
    ]);
    // Every chunk tells the prompt size, as Gemini's do; the last one the final figures and the finish.
    assert.ok(events.slice(0, -1).every((e) => e.candidates[0].finishReason === undefined && e.usageMetadata.promptTokenCount === 30));
    assert.equal(events.at(-1).candidates[0].finishReason, 'STOP');
    assert.deepEqual(events.at(-1).usageMetadata, { promptTokenCount: 30, candidatesTokenCount: 15, totalTokenCount: 45, cachedContentTokenCount: 20 });
    assert.ok(events.every((e) => e.responseId === 'msg_1' && e.modelVersion === 'claude-up'));
  });

  test('a stream cut before message_stop is incomplete', () => {
    const { complete } = runStream(canonicalStreamToGemini, [start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }]);
    assert.equal(complete, false);
  });

  test('an error event becomes a Gemini error object and ends the stream', () => {
    const { events, complete } = runStream(canonicalStreamToGemini, [start, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]);
    assert.deepEqual(events, [{ error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } }]);
    assert.equal(complete, true);
  });

  test('call arguments that are not a JSON object fail the answer', () => {
    const error = refusal(() =>
      runStream(canonicalStreamToGemini, [
        start,
        { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'ls', input: {} } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '[1,2]' } },
        { type: 'content_block_stop', index: 0 },
      ]),
    );
    assert.equal(error.side, 'answer');
  });
});

describe('upstream streams of the other protocols -> a Gemini client (composed translation, cut at every byte)', () => {
  const fixture = (path: string) => readFileSync(new URL(`../../fixtures/sse/${path}`, import.meta.url));

  function geminiChunks(upstream: 'chat' | 'messages', bytes: Buffer): { chunks: any[]; complete: boolean } {
    const translation = translatorBetween('gemini', upstream)!.stream;
    const once = (cut?: number) => {
      const parser = new SseParser();
      const raw = cut === undefined ? parser.push(bytes) : [...parser.push(bytes.subarray(0, cut)), ...parser.push(bytes.subarray(cut))];
      raw.push(...parser.end());
      return runStream(translation, raw.filter((e) => !e.comment).map((e) => (e.data === '[DONE]' ? '[DONE]' : JSON.parse(e.data))).map((data) => data));
    };
    const whole = once();
    for (let k = 1; k < bytes.length; k++) {
      const cut = once(k);
      if (!isDeepStrictEqual(cut, whole)) assert.deepEqual(cut, whole, `cut at byte ${k}`);
    }
    return { chunks: whole.events, complete: whole.complete };
  }

  const calls = (chunks: any[]) => chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []).filter((p: any) => p.functionCall).map((p: any) => p.functionCall);

  test('chat-completions parallel tool calls arrive whole, arguments parsed', () => {
    const { chunks, complete } = geminiChunks('chat', fixture('chat/tool-calls-parallel.sse'));
    assert.equal(complete, true);
    assert.deepEqual(calls(chunks), [
      { id: 'call_Dk2Wq8FhV3nN1tYb', name: 'get_weather', args: { city: 'San Francisco', unit: 'celsius' } },
      { id: calls(chunks)[1].id, name: 'get_weather', args: { city: 'München' } },
    ]);
    assert.equal(chunks.at(-1).candidates[0].finishReason, 'STOP');
  });

  test('messages thinking with its signature, then text: the thought, its signature part, the text, usage at the end', () => {
    const { chunks, complete } = geminiChunks('messages', fixture('messages/thinking.sse'));
    assert.equal(complete, true);
    const parts = chunks.flatMap((c) => c.candidates[0].content.parts);
    assert.equal(parts.filter((p: any) => p.thought).map((p: any) => p.text).join(''), '27 × 453: 27 × 400 = 10800, 27 × 53 = 1431; sum 12231.');
    assert.equal(parts.find((p: any) => p.thoughtSignature)?.thoughtSignature, 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds9dwX6tVlk6eJTEpPcYH+3DQmuKdvX6SVbZ6Yl9ieX0=');
    assert.equal(parts.filter((p: any) => !p.thought).map((p: any) => p.text).join(''), '27 × 453 = 12231');
    assert.deepEqual(chunks.at(-1).usageMetadata, { promptTokenCount: 36, candidatesTokenCount: 21, totalTokenCount: 97, thoughtsTokenCount: 40 });
  });

  test('a messages stream cut off is incomplete; one that fails ends in a Gemini error', () => {
    assert.equal(geminiChunks('messages', fixture('messages/cut-off.sse')).complete, false);
    const failed = geminiChunks('messages', fixture('messages/overloaded-midstream.sse'));
    assert.deepEqual(failed.chunks.at(-1), { error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } });
  });
});

describe('embedContent and batchEmbedContents for an OpenAI-style embeddings upstream', () => {
  test('texts and the vector size go up; vectors come back in Gemini\'s shape', () => {
    assert.deepEqual(GEMINI_EMBED_TO_OPENAI.request({ content: { parts: [{ text: 'a' }, { text: 'b' }] }, outputDimensionality: 8 }, 'emb-up', DEFAULT_TRANSLATION), { model: 'emb-up', input: 'a\nb', dimensions: 8 });
    assert.deepEqual(GEMINI_EMBED_TO_OPENAI.response({ data: [{ embedding: [0.1, 0.2] }] }, { created: 0 }), { embedding: { values: [0.1, 0.2] } });
    const batch = { requests: [{ model: 'models/e', content: { parts: [{ text: 'x' }] }, outputDimensionality: 4 }, { model: 'models/e', content: { parts: [{ text: 'y' }] }, outputDimensionality: 4 }] };
    assert.deepEqual(GEMINI_BATCH_EMBED_TO_OPENAI.request(batch, 'emb-up', DEFAULT_TRANSLATION), { model: 'emb-up', input: ['x', 'y'], dimensions: 4 });
    assert.deepEqual(GEMINI_BATCH_EMBED_TO_OPENAI.response({ data: [{ embedding: [1] }, { embedding: [2] }] }, { created: 0 }), { embeddings: [{ values: [1] }, { values: [2] }] });
  });

  test('a batch asking for two vector sizes is refused, naming the request (was: all answered at the first size)', () => {
    const batch = { requests: [{ content: { parts: [{ text: 'x' }] }, outputDimensionality: 4 }, { content: { parts: [{ text: 'y' }] }, outputDimensionality: 8 }] };
    assert.equal(refusal(() => GEMINI_BATCH_EMBED_TO_OPENAI.request(batch, 'emb-up', DEFAULT_TRANSLATION)).field, 'requests[1].outputDimensionality');
    const unset = { requests: [{ content: { parts: [{ text: 'x' }] } }, { content: { parts: [{ text: 'y' }] }, outputDimensionality: 8 }] };
    assert.equal(refusal(() => GEMINI_BATCH_EMBED_TO_OPENAI.request(unset, 'emb-up', DEFAULT_TRANSLATION)).field, 'requests[1].outputDimensionality');
  });

  test('non-text parts are refused, naming the part', () => {
    assert.equal(refusal(() => GEMINI_EMBED_TO_OPENAI.request({ content: { parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] } }, 'e', DEFAULT_TRANSLATION)).field, 'content.parts[0]');
  });
});

describe('/v1/embeddings for a Gemini embedding model (batchEmbedContents upstream)', () => {
  const bound = (body: Json) => OPENAI_EMBEDDINGS_TO_GEMINI.forRequest!(body);

  test('each text is one request naming the model; dimensions become outputDimensionality', () => {
    const body = { model: 'embed', input: ['x', 'yz'], dimensions: 3 };
    assert.deepEqual(bound(body).request(body, 'gemini-embedding-001', DEFAULT_TRANSLATION), {
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'x' }] }, outputDimensionality: 3 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'yz' }] }, outputDimensionality: 3 },
      ],
    });
    const one = { model: 'embed', input: 'solo' };
    assert.deepEqual(bound(one).request(one, 'e', DEFAULT_TRANSLATION), { requests: [{ model: 'models/e', content: { parts: [{ text: 'solo' }] } }] });
  });

  test('input_type (Cohere\'s names, which OpenAI\'s API lacks) becomes every request\'s taskType; an unknown one is refused', () => {
    const pairs = [['search_query', 'RETRIEVAL_QUERY'], ['search_document', 'RETRIEVAL_DOCUMENT'], ['classification', 'CLASSIFICATION'], ['clustering', 'CLUSTERING']];
    for (const [inputType, taskType] of pairs) {
      const body = { model: 'embed', input: ['q', 'r'], input_type: inputType };
      assert.deepEqual(
        (bound(body).request(body, 'e', DEFAULT_TRANSLATION).requests as Json[]).map((r) => r.taskType),
        [taskType, taskType],
      );
    }
    const wrong = { model: 'embed', input: 'q', input_type: 'query' };
    const refused = refusal(() => bound(wrong).request(wrong, 'e', DEFAULT_TRANSLATION));
    assert.equal(refused.field, 'input_type');
    assert.match(refused.message, /search_document, search_query, classification, clustering/);
  });

  test('the answer: OpenAI\'s list in input order, the client\'s model name, usage estimated at four characters a token unless reported', () => {
    const body = { model: 'embed', input: ['abcd', 'efghi'] };
    const answer = bound(body).response({ embeddings: [{ values: [0.5, -1] }, { values: [0.25, 2] }] }, { created: 0 });
    assert.deepEqual(answer, {
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.5, -1] }, { object: 'embedding', index: 1, embedding: [0.25, 2] }],
      model: 'embed',
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
    const reported = bound(body).response({ embeddings: [{ values: [1] }, { values: [2] }], usageMetadata: { promptTokenCount: 7 } }, { created: 0 });
    assert.deepEqual(reported.usage, { prompt_tokens: 7, total_tokens: 7 });
  });

  test('base64: little-endian 32-bit floats, as the OpenAI SDKs decode them', () => {
    const body = { model: 'embed', input: 'a', encoding_format: 'base64' };
    const answer = bound(body).response({ embeddings: [{ values: [0.1, -2.5, 3] }] }, { created: 0 }) as any;
    const bytes = Buffer.from(answer.data[0].embedding, 'base64');
    assert.equal(bytes.length, 12);
    assert.deepEqual([0, 4, 8].map((at) => bytes.readFloatLE(at)), [Math.fround(0.1), -2.5, 3]);
  });

  test('bad requests are refused naming the field: token ids, an empty list, a non-text item, a wrong size or encoding', () => {
    const field = (body: Json) => refusal(() => bound(body).request(body, 'e', DEFAULT_TRANSLATION)).field;
    assert.equal(field({ model: 'embed', input: [1, 2, 3] }), 'input[0]');
    assert.equal(field({ model: 'embed', input: [[1, 2], [3]] }), 'input[0]');
    assert.equal(field({ model: 'embed', input: [] }), 'input');
    assert.equal(field({ model: 'embed', input: ['ok', { text: 'no' }] }), 'input[1]');
    assert.equal(field({ model: 'embed', input: 'x', dimensions: 2.5 }), 'dimensions');
    assert.equal(field({ model: 'embed', input: 'x', dimensions: 0 }), 'dimensions');
    assert.equal(field({ model: 'embed', input: 'x', encoding_format: 'int8' }), 'encoding_format');
  });

  test('an answer with a vector missing, or one that is not a list, cannot be carried', () => {
    const body = { model: 'embed', input: ['a', 'b'] };
    const failure = (answer: Json) => refusal(() => bound(body).response(answer, { created: 0 }));
    assert.equal(failure({ embeddings: [{ values: [1] }] }).side, 'answer');
    assert.equal(failure({ embeddings: [{ values: [1] }, { values: 'x' }] }).field, 'embeddings[1].values');
  });
});
