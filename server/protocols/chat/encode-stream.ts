// messages-protocol stream -> chat-completions chunks (a messages upstream, a chat client).
// Each upstream event becomes at most a couple of chunks at once: text_delta -> content,
// thinking_delta -> reasoning_content, signature_delta -> thinking_blocks [{signature}],
// tool_use start and input_json_delta -> tool_calls deltas (tool call indexes count tool calls
// only, block indexes count every block), message_delta -> finish_reason, message_stop -> the
// usage chunk and [DONE]. The usage chunk is always produced; the relay hides it from a client
// that did not ask for include_usage.
import type { ChatChunk, ChatDelta, ChatFinishReason, Json } from '../../../core/protocol/chat-types.ts';
import { asNumber, asRecord, asString, isRecord } from '../shared/json-values.ts';
import { finishReasonFor } from './stop-reasons.ts';
import type { StreamContext, StreamEventIn, StreamEventOut, StreamStep, StreamTranslation } from '../shared/stream-types.ts';
import { unrepresentable } from '../shared/translation-error.ts';
import { chatUsageFromMessages } from './usage.ts';

export interface MessagesToChatState {
  readonly id: string;
  readonly model: string;
  readonly created: number;
  /** Block index -> tool call index. */
  readonly toolIndex: Readonly<Record<number, number>>;
  readonly toolCount: number;
  readonly usage: Readonly<Json>;
  readonly done: boolean;
}

type Step = StreamStep<MessagesToChatState>;

function chunk(state: MessagesToChatState, delta: ChatDelta, finish: ChatFinishReason | null = null): StreamEventOut {
  const data: ChatChunk = {
    id: state.id,
    object: 'chat.completion.chunk',
    created: state.created,
    model: state.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
  return { data };
}

/** What precedes the text in a text chunk, once per state (a piece of text leaves the state as it is). */
const TEXT_FRAME_PREFIX = new WeakMap<MessagesToChatState, string>();
function textFramePrefix(state: MessagesToChatState): string {
  let prefix = TEXT_FRAME_PREFIX.get(state);
  if (prefix === undefined) {
    prefix = `data: {"id":${JSON.stringify(state.id)},"object":"chat.completion.chunk","created":${state.created},"model":${JSON.stringify(state.model)},"choices":[{"index":0,"delta":{"content":`;
    TEXT_FRAME_PREFIX.set(state, prefix);
  }
  return prefix;
}

function blockStart(state: MessagesToChatState, index: number, block: Json): Step {
  switch (block.type) {
    case 'text': {
      const text = asString(block.text) ?? '';
      return { state, events: text ? [chunk(state, { content: text })] : [] };
    }
    case 'thinking': {
      const text = asString(block.thinking) ?? '';
      return { state, events: text ? [chunk(state, { reasoning_content: text })] : [] };
    }
    case 'redacted_thinking':
      return { state, events: [chunk(state, { thinking_blocks: [{ type: 'redacted_thinking', data: String(block.data ?? '') }] })] };
    case 'tool_use': {
      const call = state.toolCount;
      const input = isRecord(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
      const next = { ...state, toolIndex: { ...state.toolIndex, [index]: call }, toolCount: call + 1 };
      const delta: ChatDelta = { tool_calls: [{ index: call, id: String(block.id ?? ''), type: 'function', function: { name: String(block.name ?? ''), arguments: input } }] };
      return { state: next, events: [chunk(next, delta)] };
    }
    default:
      unrepresentable(`content_block_start.content_block.type`, `"${String(block.type)}" has no chat-completions equivalent.`);
  }
}

function blockDelta(state: MessagesToChatState, index: number, delta: Json): Step {
  switch (delta.type) {
    case 'text_delta':
      return { state, events: [chunk(state, { content: String(delta.text ?? '') })] };
    case 'thinking_delta':
      return { state, events: [chunk(state, { reasoning_content: String(delta.thinking ?? '') })] };
    case 'signature_delta':
      return { state, events: [chunk(state, { thinking_blocks: [{ type: 'thinking', signature: String(delta.signature ?? '') }] })] };
    case 'input_json_delta': {
      const call = state.toolIndex[index];
      if (call === undefined) unrepresentable(`content_block_delta.index`, `${index} is not a tool_use block.`);
      const partial = String(delta.partial_json ?? '');
      return { state, events: partial ? [chunk(state, { tool_calls: [{ index: call, function: { arguments: partial } }] })] : [] };
    }
    default:
      unrepresentable(`content_block_delta.delta.type`, `"${String(delta.type)}" has no chat-completions equivalent.`);
  }
}

export const messagesStreamToChat: StreamTranslation<MessagesToChatState> = {
  initial(context: StreamContext): MessagesToChatState {
    return { id: '', model: '', created: context.created, toolIndex: {}, toolCount: 0, usage: {}, done: false };
  },

  // The chunk chunk() makes for a text delta, written around the text's JSON literal.
  rawTextFrame(state, literal) {
    if (state.done) return undefined;
    return `${textFramePrefix(state)}${literal}},"logprobs":null,"finish_reason":null}]}\n\n`;
  },

  next(state, event: StreamEventIn): Step {
    if (state.done || !isRecord(event.data)) return { state, events: [] };
    const data = event.data;
    switch (data.type) {
      case 'message_start': {
        const message = asRecord(data.message);
        const next = { ...state, id: asString(message.id) ?? '', model: asString(message.model) ?? '', usage: asRecord(message.usage) };
        return { state: next, events: [chunk(next, { role: 'assistant', content: '' })] };
      }
      case 'content_block_start':
        return blockStart(state, asNumber(data.index) ?? 0, asRecord(data.content_block));
      case 'content_block_delta':
        return blockDelta(state, asNumber(data.index) ?? 0, asRecord(data.delta));
      case 'message_delta': {
        const next = { ...state, usage: { ...state.usage, ...asRecord(data.usage) } };
        const finish = finishReasonFor(asString(asRecord(data.delta).stop_reason));
        return { state: next, events: [chunk(next, {}, finish ?? 'stop')] };
      }
      case 'message_stop': {
        const usage: ChatChunk = { id: state.id, object: 'chat.completion.chunk', created: state.created, model: state.model, choices: [], usage: chatUsageFromMessages(state.usage) };
        return { state: { ...state, done: true }, events: [{ data: usage }, { data: '[DONE]' }] };
      }
      case 'error': {
        const error = asRecord(data.error);
        const body = { error: { message: String(error.message ?? 'upstream stream error'), type: String(error.type ?? 'api_error'), param: null, code: asString(error.type) ?? null } };
        return { state: { ...state, done: true }, events: [{ data: body }] };
      }
      default:
        // content_block_stop, ping, and event types added to the protocol later carry nothing for chat.
        return { state, events: [] };
    }
  },

  finish(state) {
    return { events: [], complete: state.done };
  },
};
