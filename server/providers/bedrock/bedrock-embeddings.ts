// Embedding models on Bedrock, for /v1/embeddings (and Gemini clients' embedContent, translated to
// it in protocols/gemini/embeddings.ts). Both families go through InvokeModel with their own body:
// - Amazon Titan Text Embeddings: one text a call ({inputText, dimensions}); the answer counts its
//   tokens (inputTextTokenCount);
// - Cohere Embed: up to 96 texts a call ({texts, input_type}, `output_dimension` on v4); the answer
//   holds the vectors as a list, or by type ({float: [...]}), and Bedrock counts the tokens in the
//   x-amzn-bedrock-input-token-count header.
// The answers become OpenAI's embeddings list.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { embeddingDimensions, embeddingEncoding, embeddingTexts, openAiEmbeddingList, type EmbeddingEncoding } from '../../protocols/shared/openai-embeddings.ts';

export type BedrockEmbeddingFamily = 'titan' | 'cohere';

/** Texts in one Cohere Embed call, at most (Bedrock's model parameters). */
const COHERE_TEXTS_PER_CALL = 96;

export function embeddingFamilyOf(model: string): BedrockEmbeddingFamily | undefined {
  if (/(^|[.:/])amazon\.titan-embed-/.test(model)) return 'titan';
  if (/(^|[.:/])cohere\.embed-/.test(model)) return 'cohere';
  return undefined;
}

/** A request field the model cannot take (answered 400 naming it). */
export class EmbeddingRefusal extends Error {
  constructor(
    readonly field: string,
    why: string,
  ) {
    super(`\`${field}\` ${why}`);
  }
}

const refuse = (field: string, why: string): never => {
  throw new EmbeddingRefusal(field, why);
};

export interface EmbeddingPlan {
  /** InvokeModel bodies, in order; their vectors, in order, answer the request. */
  bodies: Json[];
  texts: number;
  model: unknown;
  encoding: EmbeddingEncoding;
}

/** The InvokeModel calls for an OpenAI embeddings request; throws EmbeddingRefusal for what the model cannot take. */
export function embeddingPlan(family: BedrockEmbeddingFamily, upstreamModel: string, body: Json): EmbeddingPlan {
  const texts = embeddingTexts(body.input, refuse, `the ${family === 'titan' ? 'Titan' : 'Cohere'} model on Bedrock`);
  const dimensions = embeddingDimensions(body, refuse);
  const encoding = embeddingEncoding(body, refuse);
  if (family === 'titan') {
    if (dimensions !== undefined && /titan-embed-text-v1/.test(upstreamModel)) refuse('dimensions', 'is not a setting of Titan Text Embeddings v1 (1536 numbers); leave it out or use v2.');
    return { bodies: texts.map((inputText) => ({ inputText, ...(dimensions !== undefined ? { dimensions } : {}) })), texts: texts.length, model: body.model, encoding };
  }
  const v4 = /embed-v4/.test(upstreamModel);
  if (dimensions !== undefined && !v4) refuse('dimensions', 'is not a setting of Cohere Embed v3 (1024 numbers); leave it out or use v4.');
  const bodies: Json[] = [];
  for (let start = 0; start < texts.length; start += COHERE_TEXTS_PER_CALL) {
    // OpenAI's API has no input type: texts are embedded as documents to search, the common case.
    bodies.push({ texts: texts.slice(start, start + COHERE_TEXTS_PER_CALL), input_type: 'search_document', ...(dimensions !== undefined ? { output_dimension: dimensions } : {}) });
  }
  return { bodies, texts: texts.length, model: body.model, encoding };
}

/** The vectors and tokens of one InvokeModel answer, or undefined when it holds none. */
function vectorsOf(family: BedrockEmbeddingFamily, answer: unknown, headerTokens: number | undefined): { vectors: unknown[][]; tokens: number } | undefined {
  const record = (answer ?? {}) as Json;
  if (family === 'titan') {
    if (!Array.isArray(record.embedding)) return undefined;
    const tokens = typeof record.inputTextTokenCount === 'number' ? record.inputTextTokenCount : (headerTokens ?? 0);
    return { vectors: [record.embedding], tokens };
  }
  const embeddings = Array.isArray(record.embeddings) ? record.embeddings : ((record.embeddings as Json | undefined)?.float as unknown);
  if (!Array.isArray(embeddings) || !embeddings.every(Array.isArray)) return undefined;
  return { vectors: embeddings as unknown[][], tokens: headerTokens ?? 0 };
}

/** OpenAI's list from the calls' answers (in order), or undefined when one is not an embeddings answer. */
export function embeddingAnswer(family: BedrockEmbeddingFamily, plan: EmbeddingPlan, answers: { body: unknown; headerTokens?: number }[]): Json | undefined {
  const vectors: unknown[][] = [];
  let tokens = 0;
  for (const answer of answers) {
    const found = vectorsOf(family, answer.body, answer.headerTokens);
    if (!found) return undefined;
    vectors.push(...found.vectors);
    tokens += found.tokens;
  }
  if (vectors.length !== plan.texts) return undefined;
  return openAiEmbeddingList(vectors, plan.model, tokens, plan.encoding);
}
