// Facts about canonical blocks kept beside them, not in them (the blocks stay valid messages-protocol
// blocks). Where a canonical block came from in the client's request, so an encoder that refuses it names
// the field as the client wrote it (`input[3].output[0]`), not the canonical path. Decoders record
// the origin of blocks that an encoder of some other protocol may refuse.
const ORIGINS = new WeakMap<object, string>();

export function recordOrigin<T extends object>(block: T, field: string): T {
  ORIGINS.set(block, field);
  return block;
}

/** The client's field for a block, or the canonical path when no decoder recorded one. */
export function originOf(block: object, canonicalPath: string): string {
  return ORIGINS.get(block) ?? canonicalPath;
}

const IMAGE_DETAILS = new WeakMap<object, string>();

/** An OpenAI-family image detail (low, high) on a canonical image block; only that family's encoders read it. */
export function setImageDetail<T extends object>(block: T, detail: string): T {
  IMAGE_DETAILS.set(block, detail);
  return block;
}

export function imageDetailOf(block: object): string | undefined {
  return IMAGE_DETAILS.get(block);
}
