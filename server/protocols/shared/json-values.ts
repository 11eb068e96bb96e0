// Small readers for parsed JSON whose shape is not guaranteed.
import type { Json } from '../../../core/protocol/chat-types.ts';

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): Json {
  return isRecord(value) ? value : {};
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** True for a field that is absent or carries the protocol's "not set" value. */
export function isUnset(value: unknown): boolean {
  return value === undefined || value === null;
}

/** Parses JSON text; undefined when it is not JSON. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
