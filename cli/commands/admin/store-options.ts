// --data-dir / --database-url shared by `gwctl serve` and every `gwctl admin` command.
import type { Argv } from 'yargs';
import { defaultDataDir } from '../../../core/paths.ts';
import { defaultDatabaseUrl } from '../../../server/serve-options.ts';
import type { RevocationEvent } from '../../../server/cluster/revocation.ts';
import type { Store } from '../../../server/store/store.ts';
import { envString } from '../../env-defaults.ts';

export interface StoreArgs {
  dataDir?: string;
  databaseUrl?: string;
  redisUrl?: string;
}

export function withStoreOptions<T>(yargs: Argv<T>): Argv<T & StoreArgs> {
  return yargs
    .option('data-dir', { type: 'string', describe: 'Directory of the embedded database [env GWCTL_DATA_DIR; default ~/.local/share/gwctl]' })
    .option('database-url', { type: 'string', describe: 'Database URL: sqlite://<file> or postgres://… [env GWCTL_DATABASE_URL; default sqlite://<data-dir>/gateway.db]' })
    .option('redis-url', { type: 'string', describe: 'Redis shared by several gateway instances, e.g. redis://127.0.0.1:6379 [env GWCTL_REDIS_URL; default: none]' });
}

/**
 * After a deletion or a disable from the command line: tell running instances through Redis when
 * one is configured (on PostgreSQL the store's NOTIFY reaches them as well; SQLite needs neither).
 */
export async function announceRevocation(args: StoreArgs, env: NodeJS.ProcessEnv, event: RevocationEvent): Promise<void> {
  const url = args.redisUrl ?? envString(env, 'GWCTL_REDIS_URL');
  if (!url) return;
  const { RedisCluster } = await import('../../../server/cluster/redis-cluster.ts');
  try {
    const cluster = await RedisCluster.connect(url, envString(env, 'GWCTL_REDIS_PREFIX') ?? 'gwctl:');
    try {
      await cluster.publishRevocation(event);
    } finally {
      await cluster.close();
    }
  } catch (error) {
    // The change is committed; instances that cannot hear Redis check the database instead.
    process.stderr.write(`gwctl: warning: could not tell running instances through Redis (${(error as Error).message}); they check keys in the database while Redis is away.\n`);
  }
}

export function resolveDatabaseUrl(args: StoreArgs, env: NodeJS.ProcessEnv): { dataDir: string; databaseUrl: string } {
  const dataDir = args.dataDir ?? envString(env, 'GWCTL_DATA_DIR') ?? defaultDataDir(env);
  return { dataDir, databaseUrl: args.databaseUrl ?? envString(env, 'GWCTL_DATABASE_URL') ?? defaultDatabaseUrl(dataDir) };
}

/** Opens the store for one admin command and always closes it. */
export async function withStore<R>(args: StoreArgs, env: NodeJS.ProcessEnv, work: (store: Store) => Promise<R>): Promise<R> {
  const { Store } = await import('../../../server/store/store.ts');
  const store = await Store.open(resolveDatabaseUrl(args, env).databaseUrl);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
