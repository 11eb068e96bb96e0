// First start on an empty database: create the admin account. The password comes from
// GWCTL_ADMIN_PASSWORD, else a random one is printed once (stderr) and never stored in clear.
import { passwordProblem } from './auth/password-policy.ts';
import { randomBase62 } from './auth/random-tokens.ts';
import { ConfigError } from './errors/config-error.ts';
import type { Store } from './store/store.ts';

export const ADMIN_USERNAME = 'admin';

export interface BootstrapResult {
  created: boolean;
  generatedPassword?: string;
}

export async function bootstrapAdmin(store: Store, env: NodeJS.ProcessEnv): Promise<BootstrapResult> {
  if ((await store.users.count()) > 0) return { created: false };
  const given = env.GWCTL_ADMIN_PASSWORD;
  const password = given && given.length > 0 ? given : randomBase62(20);
  // The operator account guards every other account: the same rule as every other password.
  const problem = given ? passwordProblem(given, ADMIN_USERNAME) : undefined;
  if (problem) throw new ConfigError('weak_admin_password', `GWCTL_ADMIN_PASSWORD is refused: ${problem}`, 'Set GWCTL_ADMIN_PASSWORD to a longer, uncommon password (or unset it to get a generated one), then start again.');
  try {
    await store.users.create(ADMIN_USERNAME, password, { isAdmin: true });
  } catch (error) {
    // Instances started together on an empty database: another one created it first.
    if ((await store.users.findByName(ADMIN_USERNAME)) !== undefined) return { created: false };
    throw error;
  }
  return { created: true, generatedPassword: given ? undefined : password };
}
