// The demo model's answers in the Responses API, built with the same event grammar the gateway's
// translations use. Deterministic: the reply is derived from the last user message (or from a
// function's output when the input ends with one). The demo calls a function only when told to
// (tool_choice "required" or a named function), so agents that merely offer tools get text; it
// returns a reasoning item when a reasoning summary is asked for, with encrypted_content when
// `include` asks for it.
import { openAiErrorBody } from '../../../core/protocol/error-bodies.ts';
import type { ResponseObject } from '../../../core/protocol/responses-types.ts';
import {
  callDelta,
  closeCall,
  closeText,
  finishResponse,
  initialResponsesState,
  openCall,
  reasoningDelta,
  setEncrypted,
  startResponse,
  textDelta,
  type Draft,
} from '../../protocols/responses/events.ts';
import { responseEcho } from '../../protocols/responses/response-object.ts';
import type { StreamEventOut } from '../../protocols/shared/stream-types.ts';
import { chunkPieces, completeDemo, countTokens, tokenPieces } from './demo-text.ts';
import { demoArguments } from './demo-tool-call.ts';
import type { ResponseStore } from './response-store.ts';
import { responsesPrompt } from './responses-prompt.ts';

type Json = Record<string, unknown>;

export type DemoResponsesResult = { error: { status: number; body: unknown } } | { response: ResponseObject; events: StreamEventOut[] };

function forcedFunction(body: Json): Json | undefined {
  const tools = (Array.isArray(body.tools) ? body.tools : []).filter((t) => (t as Json)?.type === 'function') as Json[];
  const choice = body.tool_choice as Json | string | undefined;
  if (choice === 'required') return tools[0];
  if (choice && typeof choice === 'object' && choice.type === 'function') return tools.find((t) => t.name === choice.name);
  return undefined;
}

function demoReasoning(prompt: string): string {
  const excerpt = prompt.replace(/\s+/g, ' ').trim().slice(0, 40);
  return `The demo model considers "${excerpt}" and answers from a fixed word list.`;
}

export function demoResponses(body: Json, model: string, upstreamId: string, created: number, store: ResponseStore): DemoResponsesResult {
  const temperature = body.temperature;
  if (temperature !== undefined && temperature !== null && (typeof temperature !== 'number' || temperature < 0 || temperature > 2)) {
    return { error: { status: 400, body: openAiErrorBody(400, `temperature must be a number from 0 to 2, got ${JSON.stringify(temperature)}.`, { param: 'temperature' }) } };
  }
  const previousId = typeof body.previous_response_id === 'string' ? body.previous_response_id : undefined;
  const previous = previousId === undefined ? undefined : store.get(previousId);
  if (previousId !== undefined && !previous) {
    return { error: { status: 400, body: openAiErrorBody(400, `Previous response with id '${previousId}' not found.`, { param: 'previous_response_id', code: 'previous_response_not_found' }) } };
  }
  const prompt = responsesPrompt(body, previous?.conversation);
  const echo = { ...responseEcho(body), store: body.store !== false, previous_response_id: previousId ?? null };
  const s: Draft = { ...initialResponsesState({ echo, namespaced: new Map() }, created) };
  const out: StreamEventOut[] = [];
  startResponse(s, out, upstreamId, model);

  const reasoning = (body.reasoning ?? {}) as Json;
  let reasoningTokens = 0;
  if ((reasoning.summary ?? reasoning.generate_summary) && reasoning.effort !== 'none') {
    const pieces = tokenPieces(demoReasoning(prompt.lastUser));
    reasoningTokens = pieces.length;
    for (const piece of chunkPieces(pieces)) reasoningDelta(s, out, piece);
    if (Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content')) setEncrypted(s, out, Buffer.from(`demo-reasoning:${upstreamId}`).toString('base64'));
    closeText(s, out);
  }

  const maxTokens = typeof body.max_output_tokens === 'number' ? body.max_output_tokens : undefined;
  const tool = prompt.toolOutput === undefined ? forcedFunction(body) : undefined;
  let outputTokens = reasoningTokens;
  let outputText = '';
  let truncated = false;
  if (tool) {
    const args = demoArguments(tool.parameters, prompt.lastUser);
    outputTokens += countTokens(args);
    outputText = args;
    openCall(s, out, '0', { callId: `call_${upstreamId}`, name: String(tool.name) });
    callDelta(s, out, '0', args);
    closeCall(s, out, '0');
  } else {
    const completion = completeDemo(prompt.toolOutput ?? prompt.lastUser, prompt.all, maxTokens);
    outputTokens += completion.outputTokens;
    outputText = completion.text;
    truncated = completion.truncated;
    for (const piece of chunkPieces(completion.pieces)) textDelta(s, out, piece);
  }
  const inputTokens = countTokens(prompt.all);
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
  finishResponse(s, out, usage, truncated ? 'max_output_tokens' : undefined);
  const response = (out.at(-1)!.data as { response: ResponseObject }).response;
  if (body.store !== false) store.put(response.id, { response, conversation: `${prompt.all}\n${outputText}` });
  return { response, events: out };
}
