// Builds both gateway apps over an in-memory or temp-file store for app.inject tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildImageApp, buildTextApp } from '../../server/app.ts';
import { KeyAuthenticator } from '../../server/auth/key-authenticator.ts';
import { groupModelsLoader } from '../../server/accounts/group-models.ts';
import type { GatewayDeps, GatewaySettings } from '../../server/gateway-deps.ts';
import { MemoryBudgetCounter } from '../../server/limits/budget-counter.ts';
import { budgetUsageLoader } from '../../server/limits/budget-usage-loader.ts';
import { SeededBudgetCounter } from '../../server/limits/seeded-budget-counter.ts';
import { RateLimiter } from '../../server/limits/rate-limiter.ts';
import { DemoProvider } from '../../server/providers/demo/demo-provider.ts';
import type { ModelAlias } from '../../server/providers/model-aliases.ts';
import { ModelRouter } from '../../server/providers/model-router.ts';
import type { Provider } from '../../server/providers/provider.ts';
import { Store } from '../../server/store/store.ts';
import { RequestLog } from '../../server/usage/request-log.ts';
import { PriceBook } from '../../server/pricing/price-book.ts';
import type { Price } from '../../server/pricing/price.ts';
import { UsageMeter } from '../../server/usage/usage-meter.ts';

export interface TestGateway {
  text: FastifyInstance;
  image: FastifyInstance;
  deps: GatewayDeps;
  store: Store;
  dataDir: string;
  databaseUrl: string;
  /** Creates a user with a key and returns the key's full value. */
  userWithKey(username?: string): Promise<{ userId: string; keyId: string; key: string }>;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  providers?: Provider[];
  rateLimitRpm?: number;
  bodyLimitBytes?: number;
  /** The clock of limits (expiry, budget periods). */
  now?: () => number;
  /** Settings beyond the defaults of these tests (trusted proxies, HSTS, key cap, idle timeout). */
  settings?: Partial<GatewaySettings>;
  /** Model aliases of the providers file. */
  aliases?: ModelAlias[];
  /** Keep a request log (flushed by the test). */
  requestLog?: boolean;
  /** The price table (as the providers file would give it). */
  prices?: Price[];
}

export async function createTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gwctl-test-'));
  const databaseUrl = `sqlite://${join(dataDir, 'gateway.db')}`;
  const store = await Store.open(databaseUrl);
  const router = new ModelRouter(options.providers ?? [new DemoProvider({ chunkDelayMs: 0 })], { aliases: options.aliases });
  const deps: GatewayDeps = {
    store,
    authenticator: new KeyAuthenticator(store.keys, store.users, { changedElsewhere: store.database.changedElsewhere }, store.signInGrants, groupModelsLoader(store)),
    router,
    rateLimiter: new RateLimiter(options.rateLimitRpm ?? 0, options.now),
    // As a running gateway: counters seeded from the usage table (what a restart finds).
    budgets: new SeededBudgetCounter(new MemoryBudgetCounter(options.now), budgetUsageLoader(store.usage), options.now),
    usage: new UsageMeter(store.usage),
    settings: { publicUrl: 'http://gw.test', publicImageUrl: 'http://img.gw.test', bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024, ...options.settings },
    now: options.now,
    ...(options.requestLog ? { requestLog: new RequestLog(store.requestLog) } : {}),
    prices: new PriceBook(options.prices ?? [], () => store.prices.list()),
  };
  const text = buildTextApp(deps);
  const image = buildImageApp(deps);
  await Promise.all([text.ready(), image.ready()]);
  let users = 0;
  return {
    text,
    image,
    deps,
    store,
    dataDir,
    databaseUrl,
    async userWithKey(username = `user${++users}`) {
      const user = await store.users.create(username, 'password-123');
      const created = await store.keys.create(user.id, `${username}-key`);
      return { userId: user.id, keyId: created.id, key: created.key };
    },
    async close() {
      await Promise.all([text.close(), image.close()]);
      await router.close();
      await store.close().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
