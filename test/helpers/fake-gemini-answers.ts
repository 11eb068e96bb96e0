// What the fake Gemini API answers: model resources, GenerateContentResponse bodies (whole or cut
// into stream chunks), usage figures, errors in Gemini's shape, and the default answers (echo, or a
// forced function call under functionCallingConfig.mode ANY). Pure functions; fake-gemini.ts serves them.
import { createHash } from 'node:crypto';

export type GeminiPart = Record<string, any>;

export interface GeminiUsage {
  promptTokenCount: number;
  candidatesTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  totalTokenCount: number;
}

export interface GeminiModel {
  /** Bare id, such as `gemini-2.5-flash` (the resource name is `models/<id>`). */
  id: string;
  methods: string[];
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  thinking?: boolean;
}

const GENERATE = ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'];
const EMBED = ['embedContent', 'countTextTokens', 'countTokens', 'asyncBatchEmbedContent'];

export const DEFAULT_GEMINI_MODELS: GeminiModel[] = [
  // Every model Gemini CLI 0.61.0 may ask for on its own (config/models.js): the `auto` router sends
  // the chat to a pro or a flash model and its classifier calls to a flash-lite one.
  ...['gemini-3.1-pro-preview', 'gemini-3.1-pro-preview-customtools', 'gemini-3-pro-preview', 'gemini-3-flash-preview', 'gemini-2.5-pro']
    .concat(['gemini-3.8-flash', 'gemini-3.5-flash', 'gemini-3-flash', 'gemini-2.5-flash', 'gemini-3.5-flash-lite', 'gemini-3.1-flash-lite', 'gemini-2.5-flash-lite'])
    .map((id) => ({ id, methods: GENERATE, thinking: true })),
  { id: 'gemini-embedding-001', methods: EMBED, inputTokenLimit: 2048, outputTokenLimit: 1 },
  { id: 'text-embedding-004', methods: EMBED, inputTokenLimit: 2048, outputTokenLimit: 1 },
];

/** The model resource as `GET /v1beta/models/{m}` returns it. */
export function modelResource(model: GeminiModel): Record<string, unknown> {
  const embedding = model.methods.includes('embedContent');
  return {
    name: `models/${model.id}`,
    version: '001',
    displayName: model.id.replace(/-/g, ' '),
    description: `Fake ${model.id} served by the gwctl test harness`,
    inputTokenLimit: model.inputTokenLimit ?? 1_048_576,
    outputTokenLimit: model.outputTokenLimit ?? 65_536,
    supportedGenerationMethods: model.methods,
    ...(embedding ? {} : { temperature: 1, topP: 0.95, topK: 64, maxTemperature: 2 }),
    ...(model.thinking ? { thinking: true } : {}),
  };
}

export const STATUS_BY_CODE: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export interface GeminiError {
  code: number;
  message: string;
  /** Defaults from the code (400 INVALID_ARGUMENT, 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404 NOT_FOUND, …). */
  status?: string;
  details?: unknown[];
}

/** `{"error":{"code","message","status"}}`, Gemini's error body. */
export function errorBody(error: GeminiError): { error: Required<Omit<GeminiError, 'details'>> & { details?: unknown[] } } {
  return {
    error: {
      code: error.code,
      message: error.message,
      status: error.status ?? STATUS_BY_CODE[error.code] ?? 'UNKNOWN',
      ...(error.details ? { details: error.details } : {}),
    },
  };
}

/** About four characters a token, at least one: stable figures tests can predict. */
export function estimateTokens(value: unknown): number {
  if (value === undefined || value === null) return 0;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return Math.max(1, Math.ceil(text.length / 4));
}

/** The tokens of what a generateContent/countTokens request sends to the model. */
export function promptTokens(body: any): number {
  const request = body?.generateContentRequest ?? body ?? {};
  return estimateTokens(request.contents ?? []) + estimateTokens(request.systemInstruction) + estimateTokens(request.tools);
}

/** The text of the last user turn (its text parts), for the echo answer. */
export function lastUserText(body: any): string {
  const contents: any[] = Array.isArray(body?.contents) ? body.contents : [];
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i];
    if (content?.role === 'model') continue;
    const texts = (content?.parts ?? []).filter((p: any) => typeof p?.text === 'string' && !p.thought).map((p: any) => p.text);
    if (texts.length > 0) return texts.join('');
    if ((content?.parts ?? []).some((p: any) => p?.functionResponse)) return '';
  }
  return '';
}

/** A value of the schema's type (OpenAPI subset or JSON Schema, either case): the first enum value, 1, true, [], "fake". */
export function valueFor(schema: any): unknown {
  if (schema?.enum?.length) return schema.enum[0];
  const type = String(Array.isArray(schema?.type) ? schema.type[0] : (schema?.type ?? (schema?.properties ? 'object' : 'string'))).toLowerCase();
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') return argumentsFor(schema);
  return 'fake';
}

/** A value for each required property, so a forced call or a JSON answer validates. */
export function argumentsFor(schema: any): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of schema?.required ?? []) args[name] = valueFor(schema?.properties?.[name]);
  return args;
}

/** The function call `mode: ANY` forces: the first allowed name, else the first declared function. */
export function forcedCall(body: any): { name: string; args: Record<string, unknown> } | undefined {
  const config = body?.toolConfig?.functionCallingConfig;
  if (String(config?.mode ?? '').toUpperCase() !== 'ANY') return undefined;
  const declarations: any[] = (body?.tools ?? []).flatMap((tool: any) => tool?.functionDeclarations ?? []);
  const allowed: string[] = config.allowedFunctionNames ?? [];
  const chosen = declarations.find((d) => allowed.length === 0 || allowed.includes(d.name)) ?? (allowed[0] ? { name: allowed[0] } : undefined);
  if (!chosen) return undefined;
  return { name: chosen.name, args: argumentsFor(chosen.parameters ?? chosen.parametersJsonSchema) };
}

/** A deterministic unit-ish vector for a text (same text, same vector). */
export function embeddingFor(text: string, dimensions = 8): number[] {
  const values: number[] = [];
  for (let i = 0; values.length < dimensions; i++) {
    const digest = createHash('sha256').update(`${i}:${text}`).digest();
    for (let j = 0; j + 1 < digest.length && values.length < dimensions; j += 2) {
      values.push(Number((digest.readUInt16BE(j) / 65535 - 0.5).toFixed(6)));
    }
  }
  return values;
}

export function contentText(content: any): string {
  return (content?.parts ?? []).map((p: any) => (typeof p?.text === 'string' ? p.text : '')).join('');
}

/** Cuts a text into `count` pieces of nearly equal length (no empty piece unless the text is empty). */
export function cut(text: string, count: number): string[] {
  const n = Math.max(1, Math.min(count, text.length || 1));
  const size = Math.ceil(text.length / n);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length > 0 ? pieces : [''];
}
