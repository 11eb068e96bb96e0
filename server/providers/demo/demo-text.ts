// The demo model's deterministic text: a reply derived from the prompt, and a simple tokenizer
// used for both input and output so the reported token counts match what was produced.

const WORDS = (
  'gateway model token stream route key usage proxy health cache upstream client request answer ' +
  'prompt reply signal latency budget chunk protocol message server header quota window demo ' +
  'bright quiet careful steady simple honest small clear rapid gentle'
).split(' ');

const TOKEN_PATTERN = /\s*(?:[\p{L}\p{N}]+|[^\s\p{L}\p{N}])/gu;

/** Pieces of text, each one token, whitespace attached to the front; they concatenate to the input. */
export function tokenPieces(text: string): string[] {
  return text.match(TOKEN_PATTERN) ?? [];
}

/** Text longer than this is counted on a prefix of this size and scaled: bounded work for any prompt. */
const EXACT_COUNT_CHARS = 256 * 1024;

export function countTokens(text: string): number {
  const sample = text.length > EXACT_COUNT_CHARS ? text.slice(0, EXACT_COUNT_CHARS) : text;
  const counter = new RegExp(TOKEN_PATTERN.source, 'gu');
  let count = 0;
  while (counter.exec(sample) !== null) count += 1;
  return sample === text ? count : Math.round((count * text.length) / sample.length);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A small seeded generator (mulberry32): same seed, same sequence. */
export function seededRandom(seedText: string): () => number {
  let state = fnv1a(seedText);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function demoReply(prompt: string): string {
  const random = seededRandom(prompt);
  // Only the excerpt is needed: never copy a whole (possibly huge) prompt to clean it.
  const cleaned = prompt.slice(0, 400).replace(/\s+/g, ' ').trim();
  const excerpt = cleaned.length > 60 ? `${cleaned.slice(0, 57)}...` : cleaned;
  const sentences: string[] = [];
  const count = 2 + Math.floor(random() * 2);
  for (let s = 0; s < count; s += 1) {
    const length = 5 + Math.floor(random() * 6);
    const words = Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]!);
    const sentence = words.join(' ');
    sentences.push(sentence[0]!.toUpperCase() + sentence.slice(1) + '.');
  }
  const opening = excerpt ? `Demo reply to "${excerpt}".` : 'Demo reply to an empty prompt.';
  return `${opening} ${sentences.join(' ')}`;
}

export interface DemoCompletion {
  pieces: string[];
  text: string;
  inputTokens: number;
  outputTokens: number;
  truncated: boolean;
}

/** The reply for a prompt, cut at maxTokens when given. */
export function completeDemo(promptText: string, allText: string, maxTokens?: number): DemoCompletion {
  let pieces = tokenPieces(demoReply(promptText));
  let truncated = false;
  if (maxTokens !== undefined && maxTokens >= 0 && pieces.length > maxTokens) {
    pieces = pieces.slice(0, maxTokens);
    truncated = true;
  }
  return { pieces, text: pieces.join(''), inputTokens: countTokens(allText), outputTokens: pieces.length, truncated };
}

/** Groups token pieces into stream chunks of a few tokens each. */
export function chunkPieces(pieces: string[], perChunk = 3): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < pieces.length; i += perChunk) chunks.push(pieces.slice(i, i + perChunk).join(''));
  return chunks;
}
