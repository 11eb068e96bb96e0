// A settings value that cannot be used, with where it came from and what to do; callers map it to exit 2.

export class SettingError extends Error {
  override readonly name = 'SettingError';
  constructor(
    message: string,
    readonly remedy: string,
  ) {
    super(message);
  }
}
