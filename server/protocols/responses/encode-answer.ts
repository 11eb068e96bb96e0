// A canonical answer (JSON) -> a Responses response object. The answer
// is played through the same item builder the stream translations use, so a JSON answer and a
// stream of the same content end in the same response object.
import type { Json } from '../../../core/protocol/chat-types.ts';
import type { ResponseObject } from '../../../core/protocol/responses-types.ts';
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
import { responsesUsageFromMessages } from './usage.ts';
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

export function messagesAnswerToResponses(body: Json, context: ResponsesContext, created: number): ResponseObject {
  const s: Draft = { ...initialResponsesState(context, created) };
  const out: StreamEventOut[] = [];
  startResponse(s, out, asString(body.id) ?? '', asString(body.model) ?? '', asNumber(body.created));
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
