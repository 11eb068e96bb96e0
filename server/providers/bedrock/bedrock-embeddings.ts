// Embedding models on Bedrock, for /v1/embeddings and for Gemini clients' embedContent and
// batchEmbedContents. Both families go through InvokeModel with their own body:
// - Amazon Titan Text Embeddings: one text a call ({inputText, dimensions}); the answer counts its
//   tokens (inputTextTokenCount);
// - Cohere Embed: up to 96 texts a call ({texts, input_type}, `output_dimension` on v4); the answer
//   holds the vectors as a list, or by type ({float: [...]}), and Bedrock counts the tokens in the
//   x-amzn-bedrock-input-token-count header. Cohere embeds a search query and the documents it
//   should find differently: its input_type comes from the OpenAI request's `input_type`, or from
//   a Gemini request's taskType (RETRIEVAL_QUERY: search_query), documents when neither says.
// A Gemini request is read as the OpenAI one it translates to (protocols/gemini/embeddings.ts) with
// its input type; the answers become OpenAI's list, or the Gemini API's with usageMetadata.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { embeddingDimensions, embeddingEncoding, embeddingInputType, embeddingTexts, openAiEmbeddingList, type EmbeddingEncoding } from '../../protocols/shared/openai-embeddings.ts';
import { GEMINI_BATCH_EMBED_TO_OPENAI, GEMINI_EMBED_TO_OPENAI, inputTypeOfTask } from '../../protocols/gemini/embeddings.ts';
import { DEFAULT_TRANSLATION } from '../../protocols/codec.ts';

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
  const inputType = embeddingInputType(body, refuse);
  if (family === 'titan') {
    if (dimensions !== undefined && /titan-embed-text-v1/.test(upstreamModel)) refuse('dimensions', 'is not a setting of Titan Text Embeddings v1 (1536 numbers); leave it out or use v2.');
    if (inputType !== undefined) refuse('input_type', 'is not a setting of Titan Text Embeddings, which embeds queries and documents alike; leave it out, or use a Cohere Embed model.');
    return { bodies: texts.map((inputText) => ({ inputText, ...(dimensions !== undefined ? { dimensions } : {}) })), texts: texts.length, model: body.model, encoding };
  }
  const v4 = /embed-v4/.test(upstreamModel);
  if (dimensions !== undefined && !v4) refuse('dimensions', 'is not a setting of Cohere Embed v3 (1024 numbers); leave it out or use v4.');
  const bodies: Json[] = [];
  for (let start = 0; start < texts.length; start += COHERE_TEXTS_PER_CALL) {
    // Unless told, texts are embedded as documents to search, the common case.
    bodies.push({ texts: texts.slice(start, start + COHERE_TEXTS_PER_CALL), input_type: inputType ?? 'search_document', ...(dimensions !== undefined ? { output_dimension: dimensions } : {}) });
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

/**
 * The OpenAI request a Gemini embedContent (`batch` false) or batchEmbedContents body stands for,
 * with the input type of its taskType (Cohere only: Titan has none, and a task it cannot take is
 * no reason to refuse a request that Titan answers the same way). A batch is one call's input type.
 */
export function openAiBodyOfGemini(family: BedrockEmbeddingFamily, upstreamModel: string, body: Json, batch: boolean): Json {
  // Throws TranslationError for what the Gemini request cannot be read as (named as for any upstream).
  const openAi = (batch ? GEMINI_BATCH_EMBED_TO_OPENAI : GEMINI_EMBED_TO_OPENAI).request(body, upstreamModel, DEFAULT_TRANSLATION);
  if (family !== 'cohere') return openAi;
  const requests: Json[] = batch ? (body.requests as Json[]) : [body];
  // A task without a Cohere type (unset, SEMANTIC_SIMILARITY) is embedded as a document, as by default.
  const inputTypeOf = (request: Json | undefined) => inputTypeOfTask(request?.taskType) ?? 'search_document';
  const inputType = inputTypeOf(requests[0]);
  requests.forEach((request, i) => {
    if (inputTypeOf(request) !== inputType) {
      refuse(`requests[${i}].taskType`, 'asks for another kind of embedding than requests[0]; Cohere Embed embeds one call\'s texts alike. Send one batch per task type.');
    }
  });
  return { ...openAi, input_type: inputType };
}

/** The Gemini API's answer from OpenAI's list (float vectors), with its tokens as usageMetadata. */
export function geminiAnswerOfOpenAi(answer: Json, batch: boolean): Json {
  const vectors = (answer.data as Json[]).map((item) => ({ values: item.embedding }));
  const tokens = (answer.usage as Json | undefined)?.prompt_tokens ?? 0;
  const usageMetadata = { promptTokenCount: tokens, totalTokenCount: tokens };
  return batch ? { embeddings: vectors, usageMetadata } : { embedding: vectors[0], usageMetadata };
}
