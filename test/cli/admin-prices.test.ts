// gwctl admin price set|list|delete: entries checked field by field (exit 2 naming the field),
// one currency per table, replaced by model+provider+date, audited; money budgets on keys and
// users; `gwctl admin usage --json` carries cost and currency on every row.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli } from '../../cli/run-cli.ts';
import { Store } from '../../server/store/store.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'gwctl-prices-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));
const db = ['--data-dir', dataDir];

async function gwctl(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli([...args], { stdout: (t) => void (out += t), stderr: (t) => void (err += t), env: { HOME: dataDir }, readStdin: async () => '' });
  return { code, out, err };
}

test('price set / list / delete, each change audited', async () => {
  const set = await gwctl(['admin', 'price', 'set', '--model', 'claude-sonnet-*', '--input', '3', '--output', '15', '--cache-read', '0.3', '--cache-write-5m', '3.75', '--cache-write-1h', '6', '--json', ...db]);
  assert.equal(set.code, 0, set.err);
  assert.deepEqual(JSON.parse(set.out), {
    price: { model: 'claude-sonnet-*', currency: 'USD', per: 1_000_000, input: '3', output: '15', cacheRead: '0.3', cacheWrite5m: '3.75', cacheWrite1h: '6' },
    replaced: false,
  });
  const image = await gwctl(['admin', 'price', 'set', '--model', 'dall-e', '--input', '0', '--output', '0', '--image', '1024x1024=0.04,default=0.02', '--from', '2026-01-01', ...db]);
  assert.equal(image.code, 0, image.err);
  const again = await gwctl(['admin', 'price', 'set', '--model', 'claude-sonnet-*', '--input', '3', '--output', '16', ...db]);
  assert.match(again.out, /^Replaced the price of claude-sonnet-\*/);
  const list = JSON.parse((await gwctl(['admin', 'price', 'list', '--json', ...db])).out);
  assert.deepEqual(list.prices.map((p: { model: string; output: string }) => [p.model, p.output]), [['claude-sonnet-*', '16'], ['dall-e', '0']]);
  assert.deepEqual(list.prices[1].image, { '1024x1024': '0.04', default: '0.02' });
  const text = await gwctl(['admin', 'price', 'list', ...db]);
  assert.match(text.out, /MODEL\s+PROVIDER\s+FROM/);
  const deleted = await gwctl(['admin', 'price', 'delete', '--model', 'dall-e', '--from', '2026-01-01', ...db]);
  assert.equal(deleted.code, 0, deleted.err);
  const gone = await gwctl(['admin', 'price', 'delete', '--model', 'dall-e', ...db]);
  assert.equal(gone.code, 1);
  assert.match(gone.err, /No price set for dall-e/);
  const audit = JSON.parse((await gwctl(['admin', 'audit', '--json', ...db])).out) as Array<{ action: string; target: string }>;
  assert.deepEqual(
    audit.filter((e) => e.action.startsWith('price.')).map((e) => [e.action, e.target]).sort(),
    [['price.delete', 'price:dall-e from 2026-01-01'], ['price.set', 'price:claude-sonnet-*'], ['price.set', 'price:claude-sonnet-*'], ['price.set', 'price:dall-e from 2026-01-01']],
  );
});

test('bad price input exits 2 and names the field', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['--model', 'm', '--input', 'three', '--output', '1'], /input: must be an amount >= 0/],
    [['--model', 'm', '--input', '-1', '--output', '1'], /input: must be an amount/],
    [['--model', 'm', '--output', '1'], /input: is required/],
    [['--model', 'm', '--input', '1', '--output', '1', '--per', '0'], /per: must be a whole number of tokens >= 1/],
    [['--model', 'm', '--input', '1', '--output', '1', '--from', '2026-02-30'], /from: must be a date such as 2026-01-01/],
    [['--model', 'm', '--input', '1', '--output', '1', '--currency', 'usd'], /currency: must be a three-letter currency code/],
    [['--model', 'm', '--input', '1', '--output', '1', '--currency', 'EUR'], /currency: must be USD, the currency of the other prices/],
    [['--model', 'm', '--input', '1', '--output', '1', '--image', '1024=0.1'], /image\.1024: a size is WIDTHxHEIGHT/],
  ];
  for (const [args, message] of cases) {
    const result = await gwctl(['admin', 'price', 'set', ...args, ...db]);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.err}`);
    assert.match(result.err, message);
  }
});

test('money budgets on keys and users: set as amounts, kept in micro-units, bad amounts refused', async () => {
  assert.equal((await gwctl(['admin', 'user', 'add', 'payer', ...db])).code, 0);
  const user = await gwctl(['admin', 'user', 'set', 'payer', '--budget-cost-month', '100', '--json', ...db]);
  assert.equal(user.code, 0, user.err);
  assert.equal(JSON.parse(user.out).limits.budgets.costMonth, 100_000_000);
  const created = await gwctl(['admin', 'key', 'create', '--user', 'payer', '--budget-cost-day', '2.50', '--json', ...db]);
  assert.equal(created.code, 0, created.err);
  assert.equal(JSON.parse(created.out).limits.budgets.costDay, 2_500_000);
  const bad = await gwctl(['admin', 'user', 'set', 'payer', '--budget-cost-day', '1.0000001', ...db]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /Cost budget per day must be an amount of money such as 5 or 2.50/);
});

test('admin usage --json: cost and currency on every row (per key or per session), null when a request had no price', async () => {
  const store = await Store.open(`sqlite://${join(dataDir, 'gateway.db')}`);
  try {
    const hour = new Date().toISOString().slice(0, 13) + ':00Z';
    const base = { hour, userId: 'u1', keyId: 'k1', requests: 2, inputTokens: 10, outputTokens: 5, errors: 0, errorsByStatus: {}, providerRequests: 2, estimated: 0 };
    await store.usage.apply(
      [{ ...base, model: 'priced', costMicros: 46_350, unpriced: 0 }, { ...base, model: 'free-ride', costMicros: 0, unpriced: 2 }],
      new Map(),
      [{ hour, userId: 'u1', keyId: 'k1', sessionId: 'sess-1', model: 'priced', requests: 2, inputTokens: 10, outputTokens: 5, errors: 0, costMicros: 46_350, unpriced: 0 }],
    );
  } finally {
    await store.close();
  }
  const usage = await gwctl(['admin', 'usage', '--json', ...db]);
  assert.equal(usage.code, 0, usage.err);
  const rows = JSON.parse(usage.out).rows as Array<Record<string, unknown>>;
  assert.deepEqual(
    rows.map((r) => [r.model, r.cost, r.costMicros, r.currency, r.unpricedRequests]),
    [['free-ride', null, null, 'USD', 2], ['priced', 0.04635, 46_350, 'USD', 0]],
  );
  const sessions = JSON.parse((await gwctl(['admin', 'usage', '--by', 'session', '--json', ...db])).out).rows as Array<Record<string, unknown>>;
  assert.deepEqual(sessions.map((r) => [r.sessionId, r.costMicros, r.currency]), [['sess-1', 46_350, 'USD']]);
  const text = await gwctl(['admin', 'usage', ...db]);
  assert.match(text.out, /0\.04635 USD/);
  assert.match(text.out, /unknown \(2 unpriced\)/);
});
