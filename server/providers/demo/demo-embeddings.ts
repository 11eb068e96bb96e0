// The demo embedding model: deterministic vectors by feature hashing. Every token adds a signed
// unit to a few dimensions chosen by its hash, and the sum is normalised to length 1, so texts that
// share words point in similar directions and the same text always gets the same vector. Token ids
// (arrays of numbers) are hashed the same way. Answers in the OpenAI embeddings shape, as floats or
// as base64 of little-endian float32 (what the official SDK asks for by default).
import { openAiErrorBody } from '../../../core/protocol/error-bodies.ts';
import { seededRandom, tokenPieces } from './demo-text.ts';

export const DEMO_EMBEDDING_MODEL = 'demo-embedding';
export const DEMO_EMBEDDING_DIMENSIONS = 256;
const MAX_DIMENSIONS = 2048;
const MAX_INPUTS = 2048;

type Json = Record<string, unknown>;

function tokensOf(input: unknown): string[] | undefined {
  if (typeof input === 'string') return tokenPieces(input).map((t) => t.trim().toLowerCase());
  if (Array.isArray(input) && input.every((t) => Number.isInteger(t))) return input.map((t) => `#${t}`);
  return undefined;
}

export function demoVector(tokens: string[], dimensions: number): Float32Array {
  const sums = new Float64Array(dimensions);
  for (const token of tokens) {
    const random = seededRandom(token);
    for (let k = 0; k < 4; k += 1) sums[Math.floor(random() * dimensions)]! += random() < 0.5 ? -1 : 1;
  }
  const length = Math.hypot(...sums) || 1;
  return Float32Array.from(sums, (v) => v / length);
}

export type EmbeddingsResult = { status: number; body: unknown };

export function demoEmbeddings(body: Json, model: string): EmbeddingsResult {
  const bad = (message: string, param: string): EmbeddingsResult => ({ status: 400, body: openAiErrorBody(400, message, { param }) });
  const raw = body.input;
  // A list of strings or of token arrays is a batch; a string or one token array is a single input.
  const batch = Array.isArray(raw) && raw.length > 0 && (typeof raw[0] === 'string' || Array.isArray(raw[0]));
  const inputs = batch ? (raw as unknown[]) : [raw];
  if (inputs.length === 0 || inputs.length > MAX_INPUTS) return bad(`input must hold 1 to ${MAX_INPUTS} entries.`, 'input');
  const tokenLists: string[][] = [];
  for (const [i, input] of inputs.entries()) {
    const tokens = tokensOf(input);
    if (!tokens || tokens.length === 0) return bad(`input${batch ? `[${i}]` : ''} must be a non-empty string or a list of token ids.`, 'input');
    tokenLists.push(tokens);
  }
  const dimensions = body.dimensions ?? DEMO_EMBEDDING_DIMENSIONS;
  if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) {
    return bad(`dimensions must be a whole number from 1 to ${MAX_DIMENSIONS}.`, 'dimensions');
  }
  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') return bad('encoding_format must be "float" or "base64".', 'encoding_format');
  const data = tokenLists.map((tokens, index) => {
    const vector = demoVector(tokens, dimensions);
    const embedding = format === 'base64' ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') : Array.from(vector);
    return { object: 'embedding', index, embedding };
  });
  const tokens = tokenLists.reduce((sum, list) => sum + list.length, 0);
  return { status: 200, body: { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } } };
}
