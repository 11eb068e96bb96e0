// chat-completions and messages-protocol answers (JSON) -> a Responses response object. The answer
// is played through the same item builder the stream translations use, so a JSON answer and a
// stream of the same content end in the same response object.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { ResponseObject } from '../../../core/protocol/responses-types.ts';
import { reasoningText } from '../chat/decode-answer.ts';
import { asNumber, asRecord, asString, isRecord } from '../shared/json-values.ts';
import {
  beginReasoning,
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
} from './events.ts';
import { incompleteReason } from './encode-stream.ts';
import type { ResponsesContext } from './response-object.ts';
import { encryptedFromRedacted } from './reasoning.ts';
import { responsesUsageFromChat, responsesUsageFromMessages } from './usage.ts';
import type { StreamEventOut } from '../shared/stream-types.ts';
import { unrepresentable } from '../shared/translation-error.ts';

function finalResponse(out: StreamEventOut[]): ResponseObject {
  return (out.at(-1)!.data as { response: ResponseObject }).response;
}

function call(s: Draft, out: StreamEventOut[], key: string, id: string, name: string, args: string): void {
  openCall(s, out, key, { callId: id, ...(s.context.namespaced.get(name) ?? { name }) });
  callDelta(s, out, key, args);
  closeCall(s, out, key);
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => String(asRecord(p).text ?? '')).join('');
  return '';
}

export function chatAnswerToResponses(body: Json, context: ResponsesContext, created: number): ResponseObject {
  const choices = Array.isArray(body.choices) ? body.choices : [];
  if (choices.length === 0) unrepresentable('choices', 'is empty.');
  const choice = asRecord(choices[0]);
  const message = asRecord(choice.message);
  const s: Draft = { ...initialResponsesState(context, created) };
  const out: StreamEventOut[] = [];
  startResponse(s, out, asString(body.id) ?? '', asString(body.model) ?? '', asNumber(body.created));
  const blocks = Array.isArray(message.thinking_blocks) ? message.thinking_blocks.map(asRecord) : [];
  const reasoning = reasoningText(message);
  if (reasoning) reasoningDelta(s, out, reasoning);
  for (const block of blocks) {
    if (block.type === 'redacted_thinking') {
      beginReasoning(s, out);
      setEncrypted(s, out, encryptedFromRedacted(String(block.data ?? '')));
      closeText(s, out);
    } else if (asString(block.signature)) setEncrypted(s, out, String(block.signature));
  }
  const text = contentText(message.content);
  if (text) textDelta(s, out, text);
  const refusal = asString(message.refusal);
  if (refusal) textDelta(s, out, refusal, 'refusal');
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  calls.forEach((entry, k) => {
    const c = asRecord(entry);
    const fn = asRecord(c.function);
    call(s, out, String(k), asString(c.id) ?? `call_${k}`, asString(fn.name) ?? '', asString(fn.arguments) ?? '');
  });
  const finish = asString(choice.finish_reason);
  const incomplete = finish === 'length' ? 'max_output_tokens' : finish === 'content_filter' ? 'content_filter' : undefined;
  finishResponse(s, out, responsesUsageFromChat(body.usage), incomplete);
  return finalResponse(out);
}

export function messagesAnswerToResponses(body: Json, context: ResponsesContext, created: number): ResponseObject {
  const s: Draft = { ...initialResponsesState(context, created) };
  const out: StreamEventOut[] = [];
  startResponse(s, out, asString(body.id) ?? '', asString(body.model) ?? '');
  const content = Array.isArray(body.content) ? body.content : [];
  content.forEach((entry, i) => {
    const block = asRecord(entry);
    switch (block.type) {
      case 'text':
        if (Array.isArray(block.citations) && block.citations.length > 0) unrepresentable(`content[${i}].citations`, 'has no Responses equivalent the gateway can produce.');
        textDelta(s, out, String(block.text ?? ''));
        break;
      case 'thinking':
        beginReasoning(s, out);
        reasoningDelta(s, out, String(block.thinking ?? ''));
        if (asString(block.signature)) setEncrypted(s, out, String(block.signature));
        closeText(s, out);
        break;
      case 'redacted_thinking':
        beginReasoning(s, out);
        setEncrypted(s, out, encryptedFromRedacted(String(block.data ?? '')));
        closeText(s, out);
        break;
      case 'tool_use':
        call(s, out, String(i), String(block.id ?? ''), String(block.name ?? ''), isRecord(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '{}');
        break;
      default:
        unrepresentable(`content[${i}].type`, `"${String(block.type)}" has no Responses equivalent the gateway can produce.`);
    }
  });
  finishResponse(s, out, responsesUsageFromMessages(asRecord(body.usage)), incompleteReason(asString(body.stop_reason)));
  return finalResponse(out);
}
