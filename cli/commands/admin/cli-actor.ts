// Who acts when an operator runs `gwctl admin …` on a host: the audit log records the local account
// and host name, with `local` as the address.
import { hostname, userInfo } from 'node:os';

export function cliActor(): { actor: string; address: string } {
  let account = process.env.USER ?? 'unknown';
  try {
    account = userInfo().username;
  } catch {
    // No passwd entry (some containers): the environment's name is the best there is.
  }
  return { actor: `cli:${account}@${hostname()}`, address: 'local' };
}
