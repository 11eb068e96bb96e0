// Stable codes let the CLI pick exit codes and tests assert on causes without matching prose.
export type ProxyErrorCode =
  | 'bad_port'
  | 'bad_bind'
  | 'bad_upstream'
  | 'bad_timeout'
  | 'bad_size'
  | 'port_in_use'
  | 'listen_failed'
  | 'unsupported_platform'
  | 'already_installed'
  | 'not_installed'
  | 'bad_ca_file';

export class ProxyError extends Error {
  readonly code: ProxyErrorCode;
  readonly hint: string | undefined;

  constructor(code: ProxyErrorCode, message: string, hint?: string) {
    super(message);
    this.name = 'ProxyError';
    this.code = code;
    this.hint = hint;
  }
}

/** Configuration and usage mistakes exit 2; operations that failed exit 1 (DESIGN.md exit codes). */
export function exitCodeFor(error: ProxyError): number {
  switch (error.code) {
    case 'bad_port':
    case 'bad_bind':
    case 'bad_upstream':
    case 'bad_timeout':
    case 'bad_size':
    case 'bad_ca_file':
      return 2;
    default:
      return 1;
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
