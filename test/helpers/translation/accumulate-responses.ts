// What a Responses client ends up with after reading every event of a stream, written
// independently of the gateway's code, checking the event grammar on the way: response.created and
// response.in_progress first, sequence numbers rising by one, deltas only into open items and
// parts, every item closed (its final form matching what the deltas built) before exactly one
// terminal event (response.completed / .incomplete / .failed), whose response lists the same items.
import assert from 'node:assert/strict';
import type { ParsedEvent } from './accumulate.ts';

export interface ResponsesView {
  id: string;
  model: string;
  types: string[];
  /** Items by output_index, as the deltas built them. */
  items: any[];
  text: string;
  reasoning: string[];
  calls: Array<{ call_id: string; name: string; arguments: string; namespace?: string }>;
  status?: string;
  usage?: any;
  incomplete?: any;
  error?: any;
  /** The response object of the terminal event. */
  final?: any;
  /** A plain `data: {"error": …}` chunk (the gateway's own mid-stream failure), if one arrived. */
  streamError?: any;
}

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

export function accumulateResponses(events: ParsedEvent[]): ResponsesView {
  const view: ResponsesView = { id: '', model: '', types: [], items: [], text: '', reasoning: [], calls: [] };
  const open = new Set<number>();
  const openParts = new Map<number, number>();
  let seq = -1;
  let ended = false;
  for (const e of events) {
    const data = JSON.parse(e.data);
    if (data.error && data.type === undefined) {
      view.streamError = data.error;
      continue;
    }
    assert.equal(ended, false, `${data.type} after the terminal event`);
    assert.equal(e.event, data.type, 'the SSE event name repeats the type');
    assert.equal(data.sequence_number, seq + 1, `sequence_number of ${data.type}`);
    seq = data.sequence_number;
    view.types.push(data.type);
    if (view.types.length === 1) assert.equal(data.type, 'response.created');
    if (view.types.length === 2) assert.equal(data.type, 'response.in_progress');
    const item = view.items[data.output_index];
    switch (data.type) {
      case 'response.created':
      case 'response.in_progress':
        assert.equal(data.response.status, 'in_progress');
        view.id = data.response.id;
        view.model = data.response.model;
        break;
      case 'response.output_item.added':
        assert.equal(data.output_index, view.items.length, 'items are added in output_index order');
        view.items.push(structuredClone(data.item));
        open.add(data.output_index);
        break;
      case 'response.content_part.added':
        assert.ok(open.has(data.output_index) && item.type === 'message', 'a part opens inside an open message');
        assert.equal(data.content_index, item.content.length);
        assert.equal(openParts.has(data.output_index), false, 'one open part at a time');
        item.content.push(structuredClone(data.part));
        openParts.set(data.output_index, data.content_index);
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        assert.equal(openParts.get(data.output_index), data.content_index, `${data.type} into an open part`);
        const part = item.content[data.content_index];
        if (part.type === 'refusal') part.refusal += data.delta;
        else part.text += data.delta;
        break;
      }
      case 'response.output_text.done':
        assert.equal(item.content[data.content_index].text, data.text);
        break;
      case 'response.refusal.done':
        assert.equal(item.content[data.content_index].refusal, data.refusal);
        break;
      case 'response.content_part.done':
        assert.equal(openParts.get(data.output_index), data.content_index);
        assert.deepEqual(data.part, item.content[data.content_index]);
        openParts.delete(data.output_index);
        break;
      case 'response.reasoning_summary_part.added':
        assert.ok(open.has(data.output_index) && item.type === 'reasoning');
        assert.equal(data.summary_index, item.summary.length);
        item.summary.push(structuredClone(data.part));
        break;
      case 'response.reasoning_summary_text.delta':
        assert.ok(open.has(data.output_index));
        item.summary[data.summary_index].text += data.delta;
        break;
      case 'response.reasoning_summary_text.done':
        assert.equal(item.summary[data.summary_index].text, data.text);
        break;
      case 'response.reasoning_summary_part.done':
        assert.deepEqual(data.part, item.summary[data.summary_index]);
        break;
      case 'response.function_call_arguments.delta':
        assert.ok(open.has(data.output_index) && item.type === 'function_call', 'arguments go into an open call');
        item.arguments += data.delta;
        break;
      case 'response.function_call_arguments.done':
        assert.equal(item.arguments, data.arguments);
        assert.equal(item.name, data.name);
        break;
      case 'response.output_item.done': {
        assert.ok(open.delete(data.output_index), `done for an item that is not open: ${data.output_index}`);
        assert.equal(openParts.has(data.output_index), false, 'parts close before their item');
        // What the deltas built is what the item says it is (status and the opaque value aside).
        const { status: _a, encrypted_content: _b, ...built } = item;
        const { status, encrypted_content, ...done } = data.item;
        assert.deepEqual(built, done, `item ${data.output_index} as built from its deltas`);
        view.items[data.output_index] = structuredClone(data.item);
        assert.ok(status === 'completed' || status === 'incomplete' || data.item.type === 'reasoning');
        void encrypted_content;
        break;
      }
      case 'error':
        view.error = data;
        break;
      default:
        assert.ok(TERMINAL.has(data.type), `unknown event ${data.type}`);
        ended = true;
        assert.equal(open.size, 0, 'every item is closed before the terminal event');
        view.final = data.response;
        view.status = data.response.status;
        view.usage = data.response.usage;
        view.incomplete = data.response.incomplete_details;
        if (data.response.error) view.error = data.response.error;
        assert.deepEqual(data.response.output, view.items, 'the final response lists the streamed items');
    }
  }
  for (const item of view.items) {
    if (item.type === 'message') view.text += item.content.map((p: any) => p.text ?? p.refusal ?? '').join('');
    if (item.type === 'reasoning') view.reasoning.push(item.summary.map((s: any) => s.text).join(''));
    if (item.type === 'function_call') view.calls.push({ call_id: item.call_id, name: item.name, arguments: item.arguments, ...(item.namespace ? { namespace: item.namespace } : {}) });
  }
  return view;
}
