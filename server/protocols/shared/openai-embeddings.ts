// OpenAI's embeddings API seen from an upstream that speaks another one: the texts a request asks
// for, its vector size, encoding and input type, and the list it answers with (floats, or base64 of
// little-endian 32-bit floats, what the official SDKs ask for unless told otherwise). `refuse`
// names the field a request cannot be served with (a translation's 400, or a provider's).
import type { Json } from '../../../core/protocol/chat-types.ts';
import { isUnset } from './json-values.ts';

export type Refuse = (field: string, why: string) => never;
export type EmbeddingEncoding = 'float' | 'base64';

/** The texts of `input`: a string or a list of strings (token ids have no equivalent elsewhere). */
export function embeddingTexts(input: unknown, refuse: Refuse, upstream: string): string[] {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) refuse('input', 'must be a string or a non-empty list of strings.');
  return input.map((item, i) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' || Array.isArray(item)) refuse(`input[${i}]`, `token ids cannot be embedded by ${upstream}; send the text instead.`);
    return refuse(`input[${i}]`, 'must be a string.');
  });
}

export function embeddingEncoding(body: Json, refuse: Refuse): EmbeddingEncoding {
  const format = body.encoding_format;
  if (isUnset(format) || format === 'float') return 'float';
  if (format === 'base64') return 'base64';
  return refuse('encoding_format', 'must be "float" or "base64".');
}

/** `dimensions`, when set: a whole number above 0. */
export function embeddingDimensions(body: Json, refuse: Refuse): number | undefined {
  const dimensions = body.dimensions;
  if (isUnset(dimensions)) return undefined;
  if (!(Number.isInteger(dimensions) && (dimensions as number) > 0)) refuse('dimensions', 'must be a whole number above 0.');
  return dimensions as number;
}

/**
 * What the texts are embedded for. Asymmetric models (Cohere Embed, Google's) embed a search query
 * and the documents it should find differently. OpenAI's API has no such field; the gateway takes
 * Cohere's `input_type` (as LiteLLM does), which the Gemini API calls taskType.
 */
export const EMBEDDING_INPUT_TYPES = ['search_document', 'search_query', 'classification', 'clustering'] as const;
export type EmbeddingInputType = (typeof EMBEDDING_INPUT_TYPES)[number];

/** `input_type`, when set: one of EMBEDDING_INPUT_TYPES. */
export function embeddingInputType(body: Json, refuse: Refuse): EmbeddingInputType | undefined {
  const value = body.input_type;
  if (isUnset(value)) return undefined;
  if (!EMBEDDING_INPUT_TYPES.includes(value as EmbeddingInputType)) refuse('input_type', `must be one of ${EMBEDDING_INPUT_TYPES.join(', ')}.`);
  return value as EmbeddingInputType;
}

function base64Floats(values: unknown[]): string {
  const bytes = Buffer.allocUnsafe(values.length * 4);
  values.forEach((value, i) => bytes.writeFloatLE(typeof value === 'number' ? value : Number.NaN, i * 4));
  return bytes.toString('base64');
}

/** OpenAI's answer: the vectors in input order, the client's model name, prompt tokens. */
export function openAiEmbeddingList(vectors: unknown[][], model: unknown, tokens: number, encoding: EmbeddingEncoding): Json {
  return {
    object: 'list',
    data: vectors.map((values, index) => ({ object: 'embedding', index, embedding: encoding === 'base64' ? base64Floats(values) : values })),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
