// chat-completions chunks -> Responses events (a chat upstream, a Responses client).
// The first chunk creates the response; reasoning_content becomes a reasoning item's summary,
// content and refusal a message item, each tool call a function_call item (kept open until the
// choice finishes, since chat servers may interleave the arguments of parallel calls). The
// terminal event waits for the usage chunk or [DONE], because chat-completions reports usage after
// the finish reason. A chunk with `error` ends the response as response.failed.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { reasoningText } from '../chat/decode-answer.ts';
import { asNumber, asRecord, asString, isRecord } from '../shared/json-values.ts';
import {
  callDelta,
  closeAll,
  closeText,
  beginReasoning,
  failResponse,
  finishResponse,
  hasCall,
  initialResponsesState,
  openCall,
  reasoningDelta,
  setEncrypted,
  startResponse,
  textDelta,
  type ResponsesStreamState,
} from './events.ts';
import type { ResponsesContext } from './response-object.ts';
import { encryptedFromRedacted } from './reasoning.ts';
import { responsesUsageFromChat } from './usage.ts';
import type { StreamEventIn, StreamEventOut, StreamStep, StreamTranslation } from '../shared/stream-types.ts';

export interface ChatToResponsesState extends ResponsesStreamState {
  readonly incomplete: 'max_output_tokens' | 'content_filter' | null;
  readonly finished: boolean;
  readonly usage: Json | null;
}

type Draft = { -readonly [K in keyof ChatToResponsesState]: ChatToResponsesState[K] };

const INCOMPLETE: Record<string, 'max_output_tokens' | 'content_filter'> = { length: 'max_output_tokens', content_filter: 'content_filter' };

function applyDelta(s: Draft, delta: Json, out: StreamEventOut[]): void {
  const reasoning = reasoningText(delta);
  if (reasoning) reasoningDelta(s, out, reasoning);
  // thinking_blocks: signatures and redacted blocks of a messages-protocol model behind the chat upstream.
  if (Array.isArray(delta.thinking_blocks)) {
    for (const entry of delta.thinking_blocks) {
      const b = asRecord(entry);
      if (b.type === 'redacted_thinking') {
        beginReasoning(s, out);
        setEncrypted(s, out, encryptedFromRedacted(String(b.data ?? '')));
        closeText(s, out);
      } else if (typeof b.signature === 'string' && b.signature) setEncrypted(s, out, b.signature);
    }
  }
  const refusal = asString(delta.refusal);
  if (refusal) textDelta(s, out, refusal, 'refusal');
  const content = asString(delta.content);
  if (content) textDelta(s, out, content);
  if (!Array.isArray(delta.tool_calls)) return;
  for (const item of delta.tool_calls) {
    const call = asRecord(item);
    const index = asNumber(call.index) ?? 0;
    const key = String(index);
    const fn = asRecord(call.function);
    if (!hasCall(s, key)) {
      const name = asString(fn.name) ?? '';
      const namespaced = s.context.namespaced.get(name);
      openCall(s, out, key, { callId: asString(call.id) ?? `call_${index}`, ...(namespaced ?? { name }) });
    }
    const args = asString(fn.arguments);
    if (args) callDelta(s, out, key, args);
  }
}

export function chatStreamToResponses(context: ResponsesContext): StreamTranslation<ChatToResponsesState> {
  return {
    initial({ created }) {
      return { ...initialResponsesState(context, created), incomplete: null, finished: false, usage: null };
    },

    next(state, event: StreamEventIn): StreamStep<ChatToResponsesState> {
      if (state.done) return { state, events: [] };
      const s: Draft = { ...state };
      const out: StreamEventOut[] = [];
      if (event.data === '[DONE]') {
        if (!s.started) return { state, events: [] };
        finishResponse(s, out, responsesUsageFromChat(s.usage), s.incomplete ?? undefined);
        return { state: s, events: out };
      }
      if (!isRecord(event.data)) return { state, events: [] };
      const data = event.data;
      if (isRecord(data.error)) {
        const error = data.error;
        failResponse(s, out, { code: asString(error.code) ?? asString(error.type) ?? 'server_error', message: String(error.message ?? 'upstream stream error') });
        return { state: s, events: out };
      }
      if (!s.started) startResponse(s, out, asString(data.id) ?? '', asString(data.model) ?? '', asNumber(data.created));
      const choice = Array.isArray(data.choices) ? asRecord(data.choices[0]) : {};
      applyDelta(s, asRecord(choice.delta), out);
      const finish = asString(choice.finish_reason);
      if (finish) {
        s.finished = true;
        s.incomplete = INCOMPLETE[finish] ?? null;
        closeAll(s, out, s.incomplete ? 'incomplete' : 'completed');
      }
      if (isRecord(data.usage)) s.usage = data.usage;
      return { state: s, events: out };
    },

    finish(state) {
      if (state.done) return { events: [], complete: true };
      // Some servers end without [DONE]; a finish reason means the answer was complete.
      if (!state.finished) return { events: [], complete: false };
      const s: Draft = { ...state };
      const out: StreamEventOut[] = [];
      finishResponse(s, out, responsesUsageFromChat(s.usage), s.incomplete ?? undefined);
      return { events: out, complete: true };
    },
  };
}
