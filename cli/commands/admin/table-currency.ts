// The price table's currency as `gwctl admin` sees it: that of the prices set in the database, or
// of the providers file's prices (--config / GWCTL_CONFIG), or none while there are no prices.
import type { Store } from '../../../server/store/store.ts';
import { envString } from '../../env-defaults.ts';

export async function tableCurrency(store: Store, env: NodeJS.ProcessEnv, configFile?: string): Promise<string | undefined> {
  const stored = (await store.prices.list())[0]?.currency;
  if (stored) return stored;
  const file = configFile ?? envString(env, 'GWCTL_CONFIG');
  if (!file) return undefined;
  const { loadGatewayFile } = await import('../../../server/config/gateway-file.ts');
  return loadGatewayFile(file).prices[0]?.currency;
}
