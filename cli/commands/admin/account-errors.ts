// Runs an account action and turns its refusal (last operator, weak password, …) into a CLI error.
import { AccountRuleError } from '../../../server/accounts/account-rules.ts';
import { CliError, EXIT } from '../../cli-context.ts';

export async function asCliError<R>(work: () => Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AccountRuleError) throw new CliError(error.message, error.remedy, error.code === 'weak_password' ? EXIT.usage : EXIT.failed);
    throw error;
  }
}
