// The Gemini API's codec (generateContent and its stream): both halves, since Gemini is a client
// protocol (Gemini CLI, the genai SDKs) and an upstream one (type `gemini` providers).
import type { ProtocolCodec } from '../codec.ts';
import type { StreamTranslation } from '../shared/stream-types.ts';
import { decodeGeminiAnswer } from './decode-answer.ts';
import { decodeGeminiRequest } from './decode-request.ts';
import { geminiStreamToCanonical } from './decode-stream.ts';
import { encodeGeminiAnswer } from './encode-answer.ts';
import { encodeGeminiRequest } from './encode-request.ts';
import { canonicalStreamToGemini } from './encode-stream.ts';

export const GEMINI_CODEC: ProtocolCodec = {
  operation: 'gemini',
  surface: 'gemini',
  name: 'the Gemini API',
  decodeRequest: decodeGeminiRequest,
  encodeRequest: encodeGeminiRequest,
  decodeAnswer: decodeGeminiAnswer,
  encodeAnswer: encodeGeminiAnswer,
  decodeStream: geminiStreamToCanonical as StreamTranslation<unknown>,
  encodeStream: canonicalStreamToGemini as StreamTranslation<unknown>,
};
