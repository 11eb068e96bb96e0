// Embeddings between the Gemini API and the OpenAI one, both ways:
// - Gemini embedContent and batchEmbedContents for an embedding model served by an OpenAI-style
//   upstream (or the demo): the contents' text becomes `input`, outputDimensionality `dimensions`,
//   and the vectors come back as {embedding: {values}} or {embeddings: [{values}]}.
// - /v1/embeddings for an embedding model of a `gemini` upstream: every text of `input` becomes one
//   request of a batchEmbedContents call, `dimensions` their outputDimensionality, `input_type` their
//   taskType, and the vectors come back as OpenAI's list, as floats or as base64 (what the official
//   SDKs ask for).
// An OpenAI-style upstream embeds every text alike: a Gemini request's taskType has nothing to
// become there (Bedrock's Cohere Embed reads it itself, providers/bedrock/bedrock-embeddings.ts).
import type { Json } from '../../../core/protocol/chat-types.ts';
import { tokensFromChars } from '../../usage/estimate-tokens.ts';
import { asNumber, asRecord, isUnset } from '../shared/json-values.ts';
import { identityStream } from '../shared/identity-stream.ts';
import { embeddingDimensions, embeddingEncoding, embeddingInputType, embeddingTexts, openAiEmbeddingList, type EmbeddingEncoding, type EmbeddingInputType, type Refuse } from '../shared/openai-embeddings.ts';
import { refuse, unrepresentable } from '../shared/translation-error.ts';
import type { Translator } from '../translation.ts';

/** The text a Gemini embedding request's content stands for: its text parts, one a line (any other part is refused). */
export function embeddingContentText(content: unknown, field: string, refuse: Refuse): string {
  const parts = asRecord(content).parts;
  if (!Array.isArray(parts) || parts.length === 0) refuse(`${field}.parts`, 'must be a non-empty list of text parts.');
  return parts
    .map((p, i) => {
      const text = asRecord(p).text;
      if (typeof text !== 'string') refuse(`${field}.parts[${i}]`, 'the embedding model takes text parts only.');
      return text;
    })
    .join('\n');
}

const contentText = (content: unknown, field: string): string => embeddingContentText(content, field, refuse);

/** OpenAI's input_type (Cohere's names) as the Gemini API's taskType. */
const TASK_OF_INPUT_TYPE: Record<EmbeddingInputType, string> = {
  search_document: 'RETRIEVAL_DOCUMENT',
  search_query: 'RETRIEVAL_QUERY',
  classification: 'CLASSIFICATION',
  clustering: 'CLUSTERING',
};

/** The Gemini API's taskType as an input type; the tasks with no counterpart (SEMANTIC_SIMILARITY, unset) have none. */
const INPUT_TYPE_OF_TASK: Readonly<Record<string, EmbeddingInputType>> = {
  RETRIEVAL_DOCUMENT: 'search_document',
  RETRIEVAL_QUERY: 'search_query',
  // The question, the claim and the code query are what is searched with.
  QUESTION_ANSWERING: 'search_query',
  FACT_VERIFICATION: 'search_query',
  CODE_RETRIEVAL_QUERY: 'search_query',
  CLASSIFICATION: 'classification',
  CLUSTERING: 'clustering',
};

export function inputTypeOfTask(taskType: unknown): EmbeddingInputType | undefined {
  return typeof taskType === 'string' && Object.hasOwn(INPUT_TYPE_OF_TASK, taskType) ? INPUT_TYPE_OF_TASK[taskType] : undefined;
}

function dimensions(body: Json, field: string): Json {
  const value = body.outputDimensionality;
  if (isUnset(value)) return {};
  if (asNumber(value) === undefined) refuse(field, 'must be a whole number.');
  return { dimensions: value };
}

const vectors = (body: unknown): Json[] =>
  (Array.isArray(asRecord(body).data) ? (asRecord(body).data as unknown[]) : []).map((d) => ({ values: asRecord(d).embedding ?? [] }));

export const GEMINI_EMBED_TO_OPENAI: Translator = {
  clientOperation: 'gemini_embed',
  upstreamOperation: 'embeddings',
  upstreamSurface: 'openai',
  request: (body, upstreamModel) => ({ model: upstreamModel, input: contentText(body.content, 'content'), ...dimensions(body, 'outputDimensionality') }),
  response: (body) => ({ embedding: vectors(body)[0] ?? { values: [] } }),
  stream: identityStream,
};

export const GEMINI_BATCH_EMBED_TO_OPENAI: Translator = {
  clientOperation: 'gemini_batch_embed',
  upstreamOperation: 'embeddings',
  upstreamSurface: 'openai',
  request(body, upstreamModel) {
    const requests = body.requests;
    if (!Array.isArray(requests) || requests.length === 0) refuse('requests', 'must be a non-empty list of embedContent requests.');
    const first = asRecord(requests[0]);
    // One upstream call has one vector size: a batch that asks for several cannot be answered as asked.
    requests.forEach((r, i) => {
      const value = asRecord(r).outputDimensionality;
      if (value !== first.outputDimensionality && !(isUnset(value) && isUnset(first.outputDimensionality))) {
        refuse(`requests[${i}].outputDimensionality`, 'differs from requests[0]; the upstream embeds a batch at one size. Send one batch per size.');
      }
    });
    return {
      model: upstreamModel,
      input: requests.map((r, i) => contentText(asRecord(r).content, `requests[${i}].content`)),
      ...dimensions(first, 'requests[0].outputDimensionality'),
    };
  },
  response: (body) => ({ embeddings: vectors(body) }),
  stream: identityStream,
};

const GEMINI = 'a Gemini model';

function openAiToGemini(client: { model: unknown; texts: string[]; encoding: EmbeddingEncoding }): Translator {
  return {
    clientOperation: 'embeddings',
    upstreamOperation: 'gemini_batch_embed',
    upstreamSurface: 'gemini',
    request(body, upstreamModel) {
      const dimensions = embeddingDimensions(body, refuse);
      const inputType = embeddingInputType(body, refuse);
      const settings = { ...(inputType ? { taskType: TASK_OF_INPUT_TYPE[inputType] } : {}), ...(dimensions === undefined ? {} : { outputDimensionality: dimensions }) };
      // The API wants each request to name the model of the call.
      return { requests: embeddingTexts(body.input, refuse, GEMINI).map((text) => ({ model: `models/${upstreamModel}`, content: { parts: [{ text }] }, ...settings })) };
    },
    response(body) {
      const embeddings = Array.isArray(body.embeddings) ? body.embeddings : [];
      if (embeddings.length !== client.texts.length) unrepresentable('embeddings', `holds ${embeddings.length} vectors for ${client.texts.length} inputs.`);
      // Vertex counts the tokens (usageMetadata); the Gemini API does not: then the gateway's estimate,
      // the same it records (usage marks it estimated).
      const reported = asNumber(asRecord(body.usageMetadata).promptTokenCount);
      const tokens = reported ?? tokensFromChars(client.texts.reduce((sum, text) => sum + text.length, 0));
      const vectors = embeddings.map((embedding: unknown, index: number) => {
        const values = asRecord(embedding).values;
        if (!Array.isArray(values)) unrepresentable(`embeddings[${index}].values`, 'is not a list of numbers.');
        return values;
      });
      return openAiEmbeddingList(vectors, client.model, tokens, client.encoding);
    },
    stream: identityStream,
  };
}

/** /v1/embeddings for a Gemini embedding model; bound to the request it serves (its encoding, its texts). */
export const OPENAI_EMBEDDINGS_TO_GEMINI: Translator = {
  ...openAiToGemini({ model: undefined, texts: [], encoding: 'float' }),
  forRequest: (body) => openAiToGemini({ model: body.model, texts: embeddingTexts(body.input, refuse, GEMINI), encoding: embeddingEncoding(body, refuse) }),
};
