// A problem with how the gateway was started (options, files, database URL): exit code 2.

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly code: string,
    message: string,
    readonly remedy: string,
  ) {
    super(message);
  }
}
