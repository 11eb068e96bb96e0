// The refusals of account changes, as data every surface maps to its own shape (CLI exit code,
// API status, page message), and the one check of a new password.
import { passwordProblem } from '../auth/password-policy.ts';

export type AccountRuleCode = 'self' | 'last_operator' | 'not_found' | 'weak_password' | 'wrong_password';

export { PASSWORD_MIN_LENGTH } from '../auth/password-policy.ts';

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

/** The one password policy (length, common passwords, the user's own name), as an account rule. */
export function checkNewPassword(password: string, username?: string): void {
  const problem = passwordProblem(password, username);
  if (problem) throw new AccountRuleError('weak_password', problem, 'Choose another password.');
}
