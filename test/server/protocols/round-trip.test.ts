// Round-trip properties of every protocol's codec on a corpus of real-shaped traffic (Claude Code,
// Codex and Gemini CLI style requests: system prompts, tools, tool round trips, thinking with
// signatures, images; answers and streams as the services send them):
// - chat, messages, Gemini (both halves): decode -> encode -> decode gives the same canonical value,
//   for requests, answers and streams;
// - Responses (client half only): a canonical answer or stream encoded and read back as a Responses
//   client reads it (test/helpers/translation/accumulate-responses.ts) holds the canonical content;
// - streams: the SSE bytes cut into two pieces at every byte boundary decode to the same canonical
//   events as the whole stream (multi-byte characters get split).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Json } from '../../../core/protocol/chat-types.ts';
import { encodeSse, SseParser } from '../../../core/protocol/sse.ts';
import type { CanonicalAnswer, CanonicalRequest } from '../../../server/protocols/canonical/conversation.ts';
import { DEFAULT_TRANSLATION, type ProtocolCodec } from '../../../server/protocols/codec.ts';
import { CHAT_CODEC } from '../../../server/protocols/chat/codec.ts';
import { GEMINI_CODEC } from '../../../server/protocols/gemini/codec.ts';
import { MESSAGES_CODEC } from '../../../server/protocols/messages/codec.ts';
import { RESPONSES_CODEC } from '../../../server/protocols/responses/codec.ts';
import type { StreamEventIn, StreamEventOut, StreamTranslation } from '../../../server/protocols/shared/stream-types.ts';
import { accumulateMessages } from '../../helpers/translation/accumulate.ts';
import { accumulateResponses } from '../../helpers/translation/accumulate-responses.ts';
import { chatJson, messagesJson } from '../../helpers/translation/protocol-frames.ts';
import { CHAT_REQUESTS, GEMINI_ANSWERS, GEMINI_REQUESTS, GEMINI_STREAMS, MESSAGES_REQUESTS } from '../../helpers/translation/round-trip-corpus.ts';

const CONTEXT = { created: 1738100000 };
const fixture = (path: string) => readFileSync(new URL(`../../fixtures/sse/${path}`, import.meta.url));

// ---- streams: bytes -> events, cut anywhere ----

function parseEvents(bytes: Buffer, cut?: number): StreamEventIn[] {
  const parser = new SseParser();
  const raw = cut === undefined ? parser.push(bytes) : [...parser.push(bytes.subarray(0, cut)), ...parser.push(bytes.subarray(cut))];
  raw.push(...parser.end());
  return raw.filter((e) => !e.comment).map((e) => ({ event: e.event, data: e.data === '[DONE]' ? '[DONE]' : JSON.parse(e.data) }));
}

function run(translation: StreamTranslation<unknown>, events: StreamEventIn[]): { events: StreamEventOut[]; complete: boolean } {
  let state = translation.initial(CONTEXT);
  const out: StreamEventOut[] = [];
  for (const event of events) {
    const step = translation.next(state, event);
    state = step.state;
    out.push(...step.events);
  }
  const end = translation.finish(state);
  return { events: [...out, ...end.events], complete: end.complete };
}

function sseBytes(events: StreamEventOut[]): Buffer {
  return Buffer.from(events.map((e) => encodeSse(e.data, e.event)).join(''));
}

/** The canonical events of a stream, checked to be the same whichever byte the bytes are cut at. */
function decodeEveryCut(codec: ProtocolCodec, bytes: Buffer): { events: StreamEventOut[]; complete: boolean } {
  const whole = run(codec.decodeStream!, parseEvents(bytes));
  for (let k = 1; k < bytes.length; k++) {
    const cut = run(codec.decodeStream!, parseEvents(bytes, k));
    if (!isDeepStrictEqual(cut, whole)) assert.deepEqual(cut, whole, `cut at byte ${k} of ${bytes.length}`);
  }
  return whole;
}


/** The canonical message a stream builds (what a messages client ends up with). */
function canonicalView(events: StreamEventOut[]) {
  const view = accumulateMessages(events.map((e) => ({ event: (e.data as Json).type as string, data: JSON.stringify(e.data) })));
  return { message: view.message, error: view.error, stopped: view.stopped };
}

// ---- requests and answers ----

function requestRoundTrip(codec: ProtocolCodec, body: Json): { first: CanonicalRequest; second: CanonicalRequest; encoded: Json } {
  const first = codec.decodeRequest(structuredClone(body));
  const encoded = codec.encodeRequest!(structuredClone(first), { upstreamModel: String(body.model ?? 'the-model'), settings: DEFAULT_TRANSLATION });
  const second = codec.decodeRequest(structuredClone(encoded));
  return { first, second, encoded };
}

function answerRoundTrip(codec: ProtocolCodec, body: Json): { first: CanonicalAnswer; second: CanonicalAnswer } {
  const first = codec.decodeAnswer!(structuredClone(body));
  // The client's timestamp is the upstream's where it has one (the relay passes it on).
  const encoded = codec.encodeAnswer(structuredClone(first), { created: first.created ?? CONTEXT.created });
  return { first, second: codec.decodeAnswer!(structuredClone(encoded)) };
}

function streamRoundTrip(codec: ProtocolCodec, bytes: Buffer) {
  const first = decodeEveryCut(codec, bytes);
  const encoded = run(codec.encodeStream, first.events);
  const second = decodeEveryCut(codec, sseBytes(encoded.events));
  return { first, second, encodedComplete: encoded.complete };
}

const PROTOCOLS: Array<{ codec: ProtocolCodec; requests: Array<[string, Json]>; answers: Array<[string, Json]>; streams: Array<[string, Buffer]> }> = [
  {
    codec: MESSAGES_CODEC,
    requests: MESSAGES_REQUESTS,
    answers: [
      ['text with cache usage', messagesJson('claude-sonnet-4-5', 'Hello ✓', { input: 20, output: 3, cacheRead: 512, cacheCreation: 64 })],
      ['thinking and parallel tool calls', messagesJson('claude-sonnet-4-5', 'Checking.', { input: 400, output: 80 }, { thinking: { text: 'Two cities.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' }, tools: [{ id: 'toolu_01A', name: 'get_weather', pieces: ['{"city":"Paris"}'] }, { id: 'toolu_01B', name: 'get_weather', pieces: ['{"city":"Zürich"}'] }] })],
    ],
    streams: ['text-cache', 'thinking', 'tool-use-parallel', 'cut-off', 'overloaded-midstream'].map((f) => [f, fixture(`messages/${f}.sse`)]),
  },
  {
    codec: CHAT_CODEC,
    requests: CHAT_REQUESTS,
    answers: [
      ['text with cached tokens', chatJson('gpt-5', 'Hello ✓', { input: 20, output: 3, cacheRead: 512 })],
      ['parallel tool calls', chatJson('gpt-5', null, { input: 300, output: 40 }, { tools: [{ id: 'call_a', name: 'shell', pieces: ['{"cmd":["ls"]}'] }, { id: 'call_b', name: 'shell', pieces: ['{"cmd":["pwd"]}'] }] })],
      ['reasoning content', chatJson('deepseek-reasoner', '12231', { input: 36, output: 61 }, { reasoning: '27 × 453 …' })],
    ],
    streams: ['text-cached', 'reasoning', 'tool-calls-parallel', 'no-done', 'cut-off', 'error-midstream'].map((f) => [f, fixture(`chat/${f}.sse`)]),
  },
  {
    codec: GEMINI_CODEC,
    requests: GEMINI_REQUESTS,
    answers: GEMINI_ANSWERS,
    streams: GEMINI_STREAMS.map(([name, chunks]) => [name, Buffer.from(chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join(''))]),
  },
];

for (const { codec, requests, answers, streams } of PROTOCOLS) {
  describe(`${codec.name}: decode -> encode -> decode`, () => {
    for (const [name, body] of requests) {
      test(`request: ${name}`, () => {
        const { first, second } = requestRoundTrip(codec, body);
        assert.deepEqual(second, first);
      });
    }
    for (const [name, body] of answers) {
      test(`answer: ${name}`, () => {
        const { first, second } = answerRoundTrip(codec, body);
        assert.deepEqual(second, first);
      });
    }
    for (const [name, bytes] of streams) {
      test(`stream: ${name} (cut at each of its ${bytes.length} bytes)`, () => {
        const { first, second, encodedComplete } = streamRoundTrip(codec, bytes);
        assert.equal(encodedComplete, first.complete, 'the encoded stream is complete when the decoded one is');
        assert.deepEqual(canonicalView(second.events), canonicalView(first.events));
        assert.equal(second.complete, first.complete);
      });
    }
  });
}

test('Gemini: earlier thoughts are the one thing not sent back upstream (a Gemini model needs only the signatures on calls)', () => {
  const body = structuredClone(GEMINI_REQUESTS[0]![1]);
  body.contents[1].parts.unshift({ text: 'I should list it.', thought: true, thoughtSignature: 'CiQBthought' });
  const { first, second } = requestRoundTrip(GEMINI_CODEC, body);
  assert.equal(((first.messages as Json[])[1]!.content as Json[])[0]!.type, 'thinking');
  const withoutThinking = { ...first, messages: (first.messages as Json[]).map((m) => ({ ...m, content: (m.content as Json[]).filter((b) => b.type !== 'thinking') })) };
  assert.deepEqual(second, withoutThinking);
});

describe('the Responses API (client half): canonical -> Responses -> what a client reads', () => {
  const answers = PROTOCOLS.flatMap(({ codec, answers: list }) => list.map(([name, body]) => [`${codec.name}: ${name}`, codec.decodeAnswer!(structuredClone(body))] as const));
  for (const [name, canonical] of answers) {
    test(`answer from ${name}`, () => {
      const encoded = RESPONSES_CODEC.encodeAnswer(structuredClone(canonical), CONTEXT) as any;
      assert.deepEqual(responsesContent(encoded.output), canonicalContent(canonical.content as unknown as Json[]));
      assert.equal(encoded.usage.input_tokens, inputTotal(canonical.usage));
      assert.equal(encoded.usage.output_tokens, canonical.usage.output_tokens);
    });
  }
  const streams = PROTOCOLS.flatMap(({ codec, streams: list }) => list.map(([name, bytes]) => [`${codec.name}: ${name}`, codec, bytes] as const));
  for (const [name, codec, bytes] of streams) {
    test(`stream from ${name}, cut at every byte`, () => {
      const canonical = decodeEveryCut(codec, bytes);
      const encoded = run(RESPONSES_CODEC.encodeStream, canonical.events);
      const wire = sseBytes(encoded.events);
      const whole = accumulateResponses(parseEvents(wire).map((e) => ({ event: e.event, data: JSON.stringify(e.data) })));
      for (let k = 1; k < wire.length; k += 1) {
        const cut = accumulateResponses(parseEvents(wire, k).map((e) => ({ event: e.event, data: JSON.stringify(e.data) })));
        if (!isDeepStrictEqual(cut, whole)) assert.deepEqual(cut, whole, `cut at byte ${k}`);
      }
      const view = canonicalView(canonical.events);
      if (view.stopped) {
        assert.deepEqual(responsesContent(whole.final.output), canonicalContent(view.message.content));
        assert.equal(whole.final.usage.output_tokens, view.message.usage.output_tokens);
      } else {
        assert.notEqual(whole.status, 'completed', 'a cut or failed stream does not complete');
      }
    });
  }
});

function inputTotal(usage: any): number {
  return (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

/** Canonical content as comparable tuples: texts, reasoning texts, calls (name + arguments). */
function canonicalContent(blocks: Json[]): unknown[] {
  const out: unknown[] = [];
  for (const b of blocks) {
    if (b.type === 'text') out.push(['text', b.text]);
    else if (b.type === 'thinking') out.push(['reasoning', b.thinking]);
    else if (b.type === 'tool_use') out.push(['call', b.id, b.name, b.input]);
  }
  return mergeTexts(out);
}

function responsesContent(items: any[]): unknown[] {
  const out: unknown[] = [];
  for (const item of items) {
    if (item.type === 'message') for (const part of item.content) out.push(['text', part.text]);
    else if (item.type === 'reasoning') out.push(['reasoning', [...(item.content ?? []), ...(item.summary ?? [])].map((p: any) => p.text).join('')]);
    else if (item.type === 'function_call') out.push(['call', item.call_id, item.name, JSON.parse(item.arguments)]);
  }
  return mergeTexts(out);
}

function mergeTexts(tuples: unknown[]): unknown[] {
  const out: any[] = [];
  for (const t of tuples as any[]) {
    const last = out.at(-1);
    if (last && last[0] === 'text' && t[0] === 'text') last[1] += t[1];
    else out.push([...t]);
  }
  return out;
}
