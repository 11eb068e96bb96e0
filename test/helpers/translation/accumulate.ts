// Client-side views of a translated stream, written independently of the gateway's code: what a
// chat-completions client or a messages client ends up with after reading every event. The
// messages accumulator also checks the event grammar (message_start first, blocks opened in index
// order, deltas only into open blocks, every block closed, message_stop last).
import assert from 'node:assert/strict';
import { parseSse } from '../sse-text.ts';

export interface ParsedEvent {
  event?: string;
  data: string;
}

/** Splits SSE text into events (blank-line separated; comments dropped). */
export function parseSseText(text: string): ParsedEvent[] {
  return parseSse(text).filter((e) => e.hasData);
}

export interface ChatView {
  id: string;
  model: string;
  role?: string;
  content: string;
  reasoning: string;
  signatures: string[];
  redacted: string[];
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string | null;
  usage?: any;
  error?: any;
  done: boolean;
}

export function accumulateChat(events: ParsedEvent[]): ChatView {
  const view: ChatView = { id: '', model: '', content: '', reasoning: '', signatures: [], redacted: [], toolCalls: [], finishReason: null, done: false };
  for (const e of events) {
    assert.equal(view.done, false, 'nothing may follow [DONE]');
    assert.equal(e.event, undefined, 'chat-completions events carry no event name');
    if (e.data === '[DONE]') {
      view.done = true;
      continue;
    }
    const chunk = JSON.parse(e.data);
    if (chunk.error) {
      view.error = chunk.error;
      continue;
    }
    assert.equal(chunk.object, 'chat.completion.chunk');
    view.id = chunk.id;
    view.model = chunk.model;
    if (chunk.usage) view.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    const d = choice.delta;
    if (d.role) view.role = d.role;
    if (typeof d.content === 'string') view.content += d.content;
    if (typeof d.reasoning_content === 'string') view.reasoning += d.reasoning_content;
    for (const b of d.thinking_blocks ?? []) {
      if (b.type === 'redacted_thinking') view.redacted.push(b.data);
      else view.signatures.push(b.signature);
    }
    for (const call of d.tool_calls ?? []) {
      const slot = (view.toolCalls[call.index] ??= { id: '', name: '', arguments: '' });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.name = call.function.name;
      if (call.function?.arguments) slot.arguments += call.function.arguments;
    }
    if (choice.finish_reason) view.finishReason = choice.finish_reason;
  }
  return view;
}

export interface MessagesView {
  message?: any;
  types: string[];
  error?: any;
  stopped: boolean;
}

export function accumulateMessages(events: ParsedEvent[]): MessagesView {
  const view: MessagesView = { types: [], stopped: false };
  const open = new Set<number>();
  const json = new Map<number, string>();
  for (const e of events) {
    assert.equal(view.stopped, false, 'nothing may follow message_stop');
    const data = JSON.parse(e.data);
    assert.equal(e.event, data.type, 'the SSE event name repeats the type');
    view.types.push(data.type);
    if (data.type === 'error') {
      view.error = data.error;
      continue;
    }
    if (data.type !== 'message_start') assert.ok(view.message, `${data.type} before message_start`);
    switch (data.type) {
      case 'message_start':
        assert.equal(view.message, undefined, 'one message_start');
        view.message = structuredClone(data.message);
        break;
      case 'content_block_start':
        assert.equal(data.index, view.message.content.length, 'blocks open in index order');
        view.message.content.push(structuredClone(data.content_block));
        open.add(data.index);
        break;
      case 'content_block_delta': {
        assert.ok(open.has(data.index), `delta into closed block ${data.index}`);
        const block = view.message.content[data.index];
        const d = data.delta;
        if (d.type === 'text_delta') block.text += d.text;
        else if (d.type === 'thinking_delta') block.thinking += d.thinking;
        else if (d.type === 'signature_delta') block.signature = d.signature;
        else if (d.type === 'input_json_delta') json.set(data.index, (json.get(data.index) ?? '') + d.partial_json);
        else assert.fail(`unknown delta ${d.type}`);
        break;
      }
      case 'content_block_stop':
        assert.ok(open.delete(data.index), `stop of a block that is not open: ${data.index}`);
        if (json.has(data.index)) view.message.content[data.index].input = JSON.parse(json.get(data.index)!);
        break;
      case 'message_delta':
        view.message.stop_reason = data.delta.stop_reason;
        view.message.stop_sequence = data.delta.stop_sequence;
        for (const [k, v] of Object.entries(data.usage ?? {})) if (v !== null && v !== undefined) view.message.usage[k] = v;
        break;
      case 'message_stop':
        assert.equal(open.size, 0, 'every block is closed before message_stop');
        view.stopped = true;
        break;
      case 'ping':
        break;
      default:
        assert.fail(`unknown event ${data.type}`);
    }
  }
  return view;
}
