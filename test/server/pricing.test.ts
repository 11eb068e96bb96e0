// The price table's parts: decimals kept exact, the entry in force chosen by specificity then date,
// a class used without a price making the cost unknown, and the providers file's `prices` checked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGatewayConfig } from '../../server/config/gateway-file.ts';
import { decimalText, formatMicros, microsOf, picoOf } from '../../server/pricing/money.ts';
import { PriceBook } from '../../server/pricing/price-book.ts';
import type { Price } from '../../server/pricing/price.ts';
import { requestCost } from '../../server/pricing/request-cost.ts';
import { NO_CLASSES } from '../../server/usage/usage-classes-of.ts';

test('money: decimals exact to the pico-unit, amounts to the micro-unit, formatted with at least two decimals', () => {
  assert.equal(picoOf('0.3'), 300_000_000_000n);
  assert.equal(picoOf(0.075), 75_000_000_000n);
  assert.equal(picoOf('1e-7'), 100_000n);
  assert.equal(picoOf('0.0000000000001'), undefined, 'finer than a pico-unit');
  assert.equal(picoOf('-1'), undefined);
  assert.equal(picoOf('3 USD'), undefined);
  assert.equal(decimalText(3.75), '3.75');
  assert.equal(decimalText('10.500'), '10.5');
  assert.equal(microsOf('2.50'), 2_500_000);
  assert.equal(microsOf('0.0000001'), undefined, 'finer than a micro-unit');
  assert.equal(formatMicros(2_500_000), '2.50');
  assert.equal(formatMicros(46_350), '0.04635');
  assert.equal(formatMicros(0), '0.00');
});

const base: Price = { model: 'm', currency: 'USD', per: 1_000_000, input: '3', output: '15' };

test('the entry in force: provider-narrowed over general, exact over glob, longer glob over shorter; the latest date among equals', () => {
  const book = new PriceBook([
    { ...base, model: 'claude-*', input: '1' },
    { ...base, model: 'claude-sonnet-*', input: '2' },
    { ...base, model: 'claude-sonnet-4-6', input: '3' },
    { ...base, model: 'claude-sonnet-4-6', input: '4', from: '2026-06-01' },
    { ...base, model: 'claude-sonnet-4-6', provider: 'bedrock', input: '5' },
  ]);
  const at = (date: string) => Date.parse(`${date}T12:00:00Z`);
  assert.equal(book.resolve('claude-haiku-4', undefined, at('2026-07-01'))?.input, '1');
  assert.equal(book.resolve('claude-sonnet-5', undefined, at('2026-07-01'))?.input, '2');
  assert.equal(book.resolve('claude-sonnet-4-6', undefined, at('2026-05-31'))?.input, '3');
  assert.equal(book.resolve('claude-sonnet-4-6', undefined, at('2026-06-01'))?.input, '4', 'from its date on');
  assert.equal(book.resolve('claude-sonnet-4-6', 'bedrock', at('2026-07-01'))?.input, '5');
  assert.equal(book.resolve('gpt-5', undefined, at('2026-07-01')), undefined);
});

test('a class used without a price makes the cost unknown, never zero; reasoning without its own price is output', () => {
  const classes = { ...NO_CLASSES, input: 10, output: 100, reasoning: 40, cacheRead: 5 };
  assert.deepEqual(requestCost(base, { classes }), { missing: 'cacheRead' });
  assert.deepEqual(requestCost({ ...base, cacheRead: '0.3' }, { classes }), { micros: Math.round(10 * 3 + 100 * 15 + 5 * 0.3) });
  assert.deepEqual(requestCost({ ...base, cacheRead: '0.3', reasoning: '20' }, { classes }), { micros: Math.round(10 * 3 + 60 * 15 + 40 * 20 + 5 * 0.3) });
  assert.deepEqual(requestCost(base, { classes: NO_CLASSES, images: 1 }), { missing: 'image' });
  assert.deepEqual(requestCost({ ...base, image: { '512x512': '0.01' } }, { classes: NO_CLASSES, images: 1, imageSize: '1024x1024' }), { missing: 'image.1024x1024' });
  assert.deepEqual(requestCost({ ...base, per: 1000, input: '0.001' }, { classes: { ...NO_CLASSES, input: 1 } }), { micros: 1 }, 'per 1000 tokens');
});

test('the providers file: prices checked field by field, one currency, a named provider must exist', () => {
  const providers = [{ name: 'demo', type: 'demo' }];
  const parsed = parseGatewayConfig('p.yaml', { providers, prices: [{ model: 'demo-chat', currency: 'USD', input: 1, output: 2, from: '2026-01-01' }] });
  assert.deepEqual(parsed.prices, [{ model: 'demo-chat', currency: 'USD', per: 1_000_000, input: '1', output: '2', from: '2026-01-01' }]);
  const bad = (prices: unknown) => () => parseGatewayConfig('p.yaml', { providers, prices });
  assert.throws(bad([{ model: 'm', currency: 'USD', input: 'x', output: 1 }]), /p\.yaml: prices\[0\]\.input must be an amount >= 0/);
  assert.throws(bad([{ model: 'm', currency: 'USD', input: 1, output: 1 }, { model: 'n', currency: 'EUR', input: 1, output: 1 }]), /prices must all use one currency; found USD, EUR/);
  assert.throws(bad([{ model: 'm', provider: 'elsewhere', currency: 'USD', input: 1, output: 1 }]), /prices\[0\]\.provider names no provider of this file \(demo\)/);
  assert.throws(bad([{ model: 'm', currency: 'USD', input: 1, output: 1 }, { model: 'm', currency: 'USD', input: 2, output: 1 }]), /prices\[1\] repeats the model, provider and from date/);
  assert.throws(bad({ model: 'm' }), /prices must be a list/);
});
