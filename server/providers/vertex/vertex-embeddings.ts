// Google's embedding models on Vertex AI. They do not speak the Gemini API's embedContent and
// batchEmbedContents, which every client protocol is translated to (protocols/gemini/embeddings.ts):
// text-embedding-*, text-multilingual-embedding-* and gemini-embedding-001 answer `:predict`
// ({instances: [{content}], parameters: {outputDimensionality}}); newer Gemini embedding models
// answer Vertex's own `:embedContent`, one content a call. This module turns a Gemini embedding
// body into the calls the model takes (gemini-embedding-001 one text a call, the others up to 250),
// and their answers back into the Gemini API's shape, with the tokens Vertex counted as
// usageMetadata (which usage reads).
import type { Json } from '../../../core/protocol/chat-types.ts';
import { embeddingContentText } from '../../protocols/gemini/embeddings.ts';

/** Texts in one :predict call, at most (Vertex's text embeddings API). */
const MAX_INSTANCES = 250;

export type VertexEmbeddingApi = 'predict' | 'embedContent';

/** The API a Google embedding model answers on Vertex (as Google's own SDK decides it). */
export function embeddingApiOf(model: string): VertexEmbeddingApi {
  return model.includes('gemini') && !model.startsWith('gemini-embedding-001') ? 'embedContent' : 'predict';
}

/** Texts one :predict call of the model takes (Vertex documents one for gemini-embedding-001). */
function textsPerCall(model: string): number {
  return model.startsWith('gemini-embedding-001') ? 1 : MAX_INSTANCES;
}

interface EmbeddingItem {
  text: string;
  taskType?: string;
  title?: string;
  dimensions?: number;
}

/** A request field the model cannot take: `field: why`. */
class Refusal extends Error {}

const refuse = (field: string, why: string): never => {
  throw new Refusal(`${field}: ${why}`);
};

/** What one Gemini request asks: its text, task type, title and vector size. */
function itemOf(request: unknown, field: string): EmbeddingItem {
  const record = (request ?? {}) as Json;
  const text = embeddingContentText(record.content, `${field}.content`, refuse);
  const dimensions = record.outputDimensionality;
  if (dimensions !== undefined && dimensions !== null && !(Number.isInteger(dimensions) && (dimensions as number) > 0)) throw new Refusal(`${field}.outputDimensionality must be a whole number above 0.`);
  return {
    text,
    ...(typeof record.taskType === 'string' ? { taskType: record.taskType } : {}),
    ...(typeof record.title === 'string' ? { title: record.title } : {}),
    ...(typeof dimensions === 'number' ? { dimensions } : {}),
  };
}

export interface EmbeddingCalls {
  api: VertexEmbeddingApi;
  /** The bodies to send, in order; their answers' vectors, in order, are the request's. */
  bodies: Json[];
}

/** The Vertex calls for a Gemini embedContent (`batch` false) or batchEmbedContents body, or why it cannot be sent. */
export function embeddingCalls(model: string, body: Json, batch: boolean): EmbeddingCalls | { refusal: string } {
  const requests = batch ? body.requests : [body];
  if (!Array.isArray(requests) || requests.length === 0) return { refusal: 'requests must be a non-empty list of embedContent requests.' };
  let items: EmbeddingItem[];
  try {
    items = requests.map((request, i) => itemOf(request, batch ? `requests[${i}]` : 'request'));
  } catch (error) {
    if (error instanceof Refusal) return { refusal: error.message };
    throw error;
  }
  const api = embeddingApiOf(model);
  if (api === 'embedContent') {
    return {
      api,
      bodies: items.map((item) => {
        const config = { ...(item.taskType ? { taskType: item.taskType } : {}), ...(item.title ? { title: item.title } : {}), ...(item.dimensions ? { outputDimensionality: item.dimensions } : {}) };
        return { content: { parts: [{ text: item.text }] }, ...(Object.keys(config).length > 0 ? { embedContentConfig: config } : {}) };
      }),
    };
  }
  // One call holds texts of one vector size (a parameter of the call), up to the model's limit.
  const limit = textsPerCall(model);
  const groups: EmbeddingItem[][] = [];
  for (const item of items) {
    const current = groups.at(-1);
    if (current && current.length < limit && current[0]!.dimensions === item.dimensions) current.push(item);
    else groups.push([item]);
  }
  return {
    api,
    bodies: groups.map((group) => ({
      instances: group.map((item) => ({ content: item.text, ...(item.taskType ? { task_type: item.taskType } : {}), ...(item.title ? { title: item.title } : {}) })),
      ...(group[0]!.dimensions ? { parameters: { outputDimensionality: group[0]!.dimensions } } : {}),
    })),
  };
}

/** The vectors and tokens of one call's answer, or undefined when it is not the answer expected. */
function vectorsOf(api: VertexEmbeddingApi, answer: unknown): { vectors: unknown[][]; tokens: number } | undefined {
  const record = (answer ?? {}) as Json;
  if (api === 'embedContent') {
    const values = (record.embedding as Json | undefined)?.values;
    if (!Array.isArray(values)) return undefined;
    const tokens = (record.usageMetadata as Json | undefined)?.promptTokenCount;
    return { vectors: [values], tokens: typeof tokens === 'number' ? tokens : 0 };
  }
  if (!Array.isArray(record.predictions)) return undefined;
  const vectors: unknown[][] = [];
  let tokens = 0;
  for (const prediction of record.predictions) {
    const embeddings = (prediction as Json | null)?.embeddings as Json | undefined;
    if (!Array.isArray(embeddings?.values)) return undefined;
    vectors.push(embeddings.values);
    const count = (embeddings.statistics as Json | undefined)?.token_count;
    if (typeof count === 'number') tokens += count;
  }
  return { vectors, tokens };
}

/** The Gemini API's answer from the calls' answers (in order), or undefined when one is not an embedding answer. */
export function geminiEmbeddingAnswer(api: VertexEmbeddingApi, answers: unknown[], expected: number, batch: boolean): Json | undefined {
  const vectors: unknown[][] = [];
  let tokens = 0;
  for (const answer of answers) {
    const found = vectorsOf(api, answer);
    if (!found) return undefined;
    vectors.push(...found.vectors);
    tokens += found.tokens;
  }
  if (vectors.length !== expected) return undefined;
  const usageMetadata = { promptTokenCount: tokens, totalTokenCount: tokens };
  return batch ? { embeddings: vectors.map((values) => ({ values })), usageMetadata } : { embedding: { values: vectors[0] }, usageMetadata };
}
