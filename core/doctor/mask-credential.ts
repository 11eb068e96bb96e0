// Masks a credential as it would be used: surrounding whitespace and quotes (straight or typographic)
// are not part of the key, so they neither hide the `sk-` prefix nor take the place of its tail.
import { maskKey } from '../redact.ts';

export function maskCredential(value: string | undefined | null): string {
  if (!value) return maskKey(value);
  return maskKey(value.trim().replace(/^["'\u2018\u2019\u201C\u201D]+|["'\u2018\u2019\u201C\u201D]+$/g, ''));
}
