// A request field or an upstream answer that has no faithful equivalent in the other protocol.
// Requests are refused with 400 naming the field; an answer the client's protocol cannot carry
// ends as an upstream failure (502) naming what the upstream sent.

export type TranslationSide = 'request' | 'answer';

export class TranslationError extends Error {
  override readonly name = 'TranslationError';
  constructor(
    /** Path of the offending field, e.g. `messages[2].content[0].image_url.detail`. */
    readonly field: string,
    message: string,
    readonly side: TranslationSide = 'request',
  ) {
    super(message);
  }
}

/** Refuses a request field: `field` is named in the message and returned as the error's param. */
export function refuse(field: string, why: string): never {
  throw new TranslationError(field, `\`${field}\` cannot be translated: ${why}`);
}

/** Fails an upstream answer the client's protocol cannot carry. */
export function unrepresentable(field: string, why: string): never {
  throw new TranslationError(field, `The upstream answer cannot be translated: \`${field}\` ${why}`, 'answer');
}
