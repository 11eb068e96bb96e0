// What the gateway benchmarks send and how their gateway is configured: the providers file routing
// the three fake upstream protocols, and the request bodies of each path (run.ts, cpu-ab.ts).
import { FAKE_MODEL } from './fake-upstream.ts';

/** Served by the fake's messages endpoint: a chat client on it is translated. */
export const TRANSLATED_MODEL = 'bench-translated';
/** Served by the fake's generateContent endpoint: a chat client on it is translated. */
export const GEMINI_UPSTREAM_MODEL = 'bench-gemini';

export type BenchMode = 'JSON' | 'stream';

/** The gateway's providers file: the fake as a chat-completions, a messages and a Gemini upstream. */
export function benchProviders(fakeOrigin: string): unknown[] {
  return [
    { name: 'fake', type: 'openai', baseUrl: `${fakeOrigin}/v1`, models: [FAKE_MODEL] },
    { name: 'fake-messages', type: 'anthropic', baseUrl: fakeOrigin, models: [{ name: TRANSLATED_MODEL, upstreamModel: FAKE_MODEL }] },
    { name: 'fake-gemini', type: 'gemini', baseUrl: fakeOrigin, models: [{ name: GEMINI_UPSTREAM_MODEL, upstreamModel: FAKE_MODEL }] },
  ];
}

/** A chat-completions request (streamed with usage in `stream` mode). */
export function requestBody(mode: BenchMode, model = FAKE_MODEL): string {
  return JSON.stringify({
    model,
    messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
    max_tokens: 16,
    ...(mode === 'stream' ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/** The same question as a Gemini-API request (the model and streaming are named by the URL). */
export function geminiRequestBody(): string {
  return JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hello to the benchmark.' }] }], generationConfig: { maxOutputTokens: 16 } });
}

/** The Gemini-API method of a mode. */
export function geminiMethod(mode: BenchMode): string {
  return mode === 'JSON' ? 'generateContent' : 'streamGenerateContent?alt=sse';
}
