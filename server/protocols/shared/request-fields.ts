// Checks the top-level fields of a request before translation: every field is either translated,
// or carries the value that means "not used", or is refused with its name.
import type { Json } from '../../../core/protocol/chat-types.ts';
import { isRecord, isUnset } from './json-values.ts';
import { refuse } from './translation-error.ts';

/** A field the target protocol cannot express, accepted only with its "not used" value. */
export interface InertRule {
  inert: (value: unknown) => boolean;
  why: string;
}

export const isEmptyRecord = (value: unknown) => isRecord(value) && Object.keys(value).length === 0;

export function checkRequestFields(body: Json, translated: ReadonlySet<string>, inert: Record<string, InertRule>, target: string): void {
  for (const key in body) {
    if (translated.has(key)) continue;
    const value = body[key];
    if (isUnset(value)) continue;
    const rule = inert[key];
    if (rule) {
      if (!rule.inert(value)) refuse(key, rule.why);
      continue;
    }
    refuse(key, `${target} has no such field, and the gateway does not drop fields silently.`);
  }
}
