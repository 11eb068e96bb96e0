// The refusals of account changes, as data every surface maps to its own shape (CLI exit code,
// API status, page message), and the one check of a new password.
export type AccountRuleCode = 'self' | 'last_operator' | 'not_found' | 'weak_password' | 'wrong_password';

export const PASSWORD_MIN_LENGTH = 8;

export class AccountRuleError extends Error {
  override readonly name = 'AccountRuleError';
  constructor(
    readonly code: AccountRuleCode,
    message: string,
    readonly remedy: string,
  ) {
    super(message);
  }

  /** The HTTP status for the operator API and the pages. */
  get status(): number {
    return this.code === 'not_found' ? 404 : this.code === 'weak_password' || this.code === 'wrong_password' ? 400 : 409;
  }
}

export function checkNewPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw new AccountRuleError('weak_password', `The new password is shorter than ${PASSWORD_MIN_LENGTH} characters.`, `Choose one of at least ${PASSWORD_MIN_LENGTH} characters.`);
  }
}
