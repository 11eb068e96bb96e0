// The pages and their JSON calls take each query parameter once. A repeated one (`?model=a&model=b`)
// arrives as a list that no page expects: it is answered 400 with what to change, before any
// handler sees it.

export class RepeatedParameterError extends Error {
  readonly statusCode = 400;
  constructor(readonly parameter: string) {
    super(`The address gives “${parameter}” more than once; give each parameter once.`);
    this.name = 'RepeatedParameterError';
  }
}

export function checkRepeatedParameters(query: unknown): void {
  if (typeof query !== 'object' || query === null) return;
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw new RepeatedParameterError(name.slice(0, 40));
  }
}
