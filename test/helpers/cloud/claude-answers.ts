// Claude's answers as the clouds return them: a messages JSON body, and the events of a stream as
// JSON objects (the Bedrock fake wraps each in an event-stream message, the Vertex fake in SSE).
import { messagesFrames, messagesJson } from '../translation/protocol-frames.ts';

export interface ClaudeUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheCreation?: number;
}

export function claudeJson(model: string, text: string, usage: ClaudeUsage) {
  return messagesJson(model, text, usage);
}

/** The stream's events as objects, in order. */
export function claudeEvents(model: string, pieces: string[], usage: ClaudeUsage): Array<Record<string, unknown>> {
  return messagesFrames(model, pieces, usage).map((frame) => JSON.parse(frame.split('\n').find((line) => line.startsWith('data: '))!.slice(6)));
}

/** A reply's words cut in a few pieces, as a stream delivers them. */
export function piecesOf(text: string): string[] {
  return text.split(/(?<= )/);
}
