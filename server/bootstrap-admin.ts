// First start on an empty database: create the admin account. The password comes from
// GWCTL_ADMIN_PASSWORD, else a random one is printed once (stderr) and never stored in clear.
import { randomBase62 } from './auth/random-tokens.ts';
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
  try {
    await store.users.create(ADMIN_USERNAME, password, { isAdmin: true });
  } catch (error) {
    // Instances started together on an empty database: another one created it first.
    if ((await store.users.findByName(ADMIN_USERNAME)) !== undefined) return { created: false };
    throw error;
  }
  return { created: true, generatedPassword: given ? undefined : password };
}
