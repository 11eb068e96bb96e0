// messages-protocol stream -> Responses events (a messages upstream, a Responses client).
// message_start creates the response; a thinking block becomes a reasoning item (text as its
// summary, the signature as encrypted_content, closed with its block so each keeps its own
// signature), text blocks a message item, each tool_use block a function_call item; message_stop
// ends with response.completed or response.incomplete and the usage message_start and
// message_delta reported. An `error` event ends the response as response.failed.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { asNumber, asRecord, asString, isRecord } from '../shared/json-values.ts';
import {
  beginReasoning,
  callDelta,
  closeCall,
  closeText,
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
import { responsesUsageFromMessages } from './usage.ts';
import type { StreamEventIn, StreamEventOut, StreamStep, StreamTranslation } from '../shared/stream-types.ts';
import { unrepresentable } from '../shared/translation-error.ts';

export interface MessagesToResponsesState extends ResponsesStreamState {
  readonly usage: Readonly<Json>;
  readonly stopReason: string | null;
}

type Draft = { -readonly [K in keyof MessagesToResponsesState]: MessagesToResponsesState[K] };

export function incompleteReason(stopReason: string | null | undefined): 'max_output_tokens' | 'content_filter' | undefined {
  if (stopReason === 'max_tokens' || stopReason === 'model_context_window_exceeded') return 'max_output_tokens';
  if (stopReason === 'refusal') return 'content_filter';
  return undefined;
}

function blockStart(s: Draft, index: number, block: Json, out: StreamEventOut[]): void {
  switch (block.type) {
    case 'text':
      textDelta(s, out, asString(block.text) ?? '');
      return;
    case 'thinking':
      beginReasoning(s, out);
      reasoningDelta(s, out, asString(block.thinking) ?? '');
      if (asString(block.signature)) setEncrypted(s, out, String(block.signature));
      return;
    case 'redacted_thinking':
      beginReasoning(s, out);
      setEncrypted(s, out, encryptedFromRedacted(String(block.data ?? '')));
      return;
    case 'tool_use': {
      const name = asString(block.name) ?? '';
      openCall(s, out, String(index), { callId: String(block.id ?? ''), ...(s.context.namespaced.get(name) ?? { name }) });
      if (isRecord(block.input) && Object.keys(block.input).length > 0) callDelta(s, out, String(index), JSON.stringify(block.input));
      return;
    }
    default:
      unrepresentable('content_block_start.content_block.type', `"${String(block.type)}" has no Responses equivalent the gateway can produce.`);
  }
}

function blockDelta(s: Draft, index: number, delta: Json, out: StreamEventOut[]): void {
  switch (delta.type) {
    case 'text_delta':
      textDelta(s, out, String(delta.text ?? ''));
      return;
    case 'thinking_delta':
      reasoningDelta(s, out, String(delta.thinking ?? ''));
      return;
    case 'signature_delta':
      setEncrypted(s, out, String(delta.signature ?? ''));
      return;
    case 'input_json_delta':
      if (!hasCall(s, String(index))) unrepresentable('content_block_delta.index', `${index} is not a tool_use block.`);
      callDelta(s, out, String(index), String(delta.partial_json ?? ''));
      return;
    default:
      unrepresentable('content_block_delta.delta.type', `"${String(delta.type)}" has no Responses equivalent the gateway can produce.`);
  }
}

export function messagesStreamToResponses(context: ResponsesContext): StreamTranslation<MessagesToResponsesState> {
  return {
    initial({ created }) {
      return { ...initialResponsesState(context, created), usage: {}, stopReason: null };
    },

    next(state, event: StreamEventIn): StreamStep<MessagesToResponsesState> {
      if (state.done || !isRecord(event.data)) return { state, events: [] };
      const data = event.data;
      const s: Draft = { ...state };
      const out: StreamEventOut[] = [];
      switch (data.type) {
        case 'message_start': {
          const message = asRecord(data.message);
          s.usage = asRecord(message.usage);
          startResponse(s, out, asString(message.id) ?? '', asString(message.model) ?? '');
          break;
        }
        case 'content_block_start':
          blockStart(s, asNumber(data.index) ?? 0, asRecord(data.content_block), out);
          break;
        case 'content_block_delta':
          blockDelta(s, asNumber(data.index) ?? 0, asRecord(data.delta), out);
          break;
        case 'content_block_stop': {
          const key = String(asNumber(data.index) ?? 0);
          if (hasCall(s, key)) closeCall(s, out, key);
          // Each thinking block keeps its own signature: its reasoning item ends with the block.
          else if (s.open?.kind === 'reasoning') closeText(s, out);
          break;
        }
        case 'message_delta':
          s.usage = { ...s.usage, ...asRecord(data.usage) };
          s.stopReason = asString(asRecord(data.delta).stop_reason) ?? s.stopReason;
          break;
        case 'message_stop':
          if (!s.started) startResponse(s, out, '', '');
          finishResponse(s, out, responsesUsageFromMessages(s.usage), incompleteReason(s.stopReason));
          break;
        case 'error': {
          const error = asRecord(data.error);
          failResponse(s, out, { code: responsesErrorCode(asString(error.type)), message: String(error.message ?? 'upstream stream error') });
          break;
        }
        default:
          // ping, and event types added to the protocol later, carry nothing for Responses clients.
          return { state, events: [] };
      }
      return { state: s, events: out };
    },

    finish(state) {
      return { events: [], complete: state.done };
    },
  };
}

/** The Responses error code for a canonical (messages-spelled) error type; a generic upstream failure is a server_error there. */
function responsesErrorCode(type: string | undefined): string {
  return type === undefined || type === 'api_error' ? 'server_error' : type;
}
