// Operator API, prices: the price table cost is computed from (the providers file's entries and the
// ones set here), set one entry, delete one. Each change is audited and applies to usage recorded
// from then on, on this instance at once and on others within a usage flush interval.
import type { FastifyInstance } from 'fastify';
import { tokenActor } from '../audit/audit-targets.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import type { GatewayDeps } from '../gateway-deps.ts';
import { deletePrice, setPrice } from '../pricing/price-changes.ts';
import { PriceInputError } from '../pricing/price-input.ts';
import { authErrors, errorSchema } from './admin-schemas.ts';

const tags = ['prices'];
const amount = { type: ['number', 'string'], description: 'Currency units per `per` tokens, e.g. 3 or "0.3"' } as const;
const priceProperties = {
  model: { type: 'string', description: 'A public model name or a glob such as claude-sonnet-*' },
  provider: { type: ['string', 'null'], description: 'Only requests served by this provider' },
  currency: { type: 'string', description: 'ISO code, e.g. USD; one for the whole table' },
  per: { type: ['integer', 'string'], description: 'Tokens the token prices are for (default 1000000)' },
  input: amount,
  output: amount,
  cacheRead: amount,
  cacheWrite5m: amount,
  cacheWrite1h: amount,
  reasoning: { ...amount, description: 'Reasoning tokens apart from the other output, when the upstream reports them' },
  image: { type: ['number', 'string', 'object'], description: 'Per image generated; or per size: {"1024x1024": 0.04, "default": 0.02}' },
  request: { ...amount, description: 'Per request' },
  from: { type: ['string', 'null'], description: 'YYYY-MM-DD (UTC) the price takes effect' },
} as const;
const priceSchema = { type: 'object', properties: { ...priceProperties, source: { type: 'string', enum: ['file', 'database'] } }, additionalProperties: true } as const;

export function registerAdminPricesRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const book = () => {
    if (!deps.prices) throw new GatewayError(503, 'prices_unavailable', 'This gateway keeps no price table.');
    return deps.prices;
  };

  app.get(
    '/admin/api/v1/prices',
    {
      schema: {
        tags,
        summary: 'The price table: every entry, its source (providers file or set here), and the models used without a price',
        response: { 200: { type: 'object', properties: { currency: { type: ['string', 'null'] }, prices: { type: 'array', items: priceSchema }, unpricedModels: { type: 'array', items: { type: 'string' } } } }, ...authErrors },
      },
    },
    async () => {
      const prices = book();
      await prices.reload();
      return { currency: prices.currency ?? null, prices: prices.entries(), unpricedModels: prices.unpricedModels() };
    },
  );

  app.put<{ Body: Record<string, unknown> }>(
    '/admin/api/v1/prices',
    {
      schema: {
        tags,
        summary: 'Set the price of a model (replaces the entry of the same model, provider and from date)',
        description: 'Recorded cost never changes: a price applies to usage recorded from now (and from its `from` date) on.',
        body: { type: 'object', properties: priceProperties },
        response: { 200: { type: 'object', properties: { price: priceSchema, replaced: { type: 'boolean' } } }, 400: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const prices = book();
      const provider = request.body.provider;
      if (typeof provider === 'string' && !deps.router.providers.some((p) => p.name === provider)) {
        throw new GatewayError(400, 'invalid_price', `provider: no provider is named "${provider}"; providers: ${deps.router.providers.map((p) => p.name).join(', ')}.`, { param: 'provider' });
      }
      try {
        const result = await setPrice(deps.store, request.body, tokenActor(request), prices.entries().filter((p) => p.source === 'file'));
        await prices.reload();
        return result;
      } catch (error) {
        if (error instanceof PriceInputError) throw new GatewayError(400, 'invalid_price', error.message, { param: error.field });
        throw error;
      }
    },
  );

  app.delete<{ Querystring: { model: string; provider?: string; from?: string } }>(
    '/admin/api/v1/prices',
    {
      schema: {
        tags,
        summary: 'Delete the entry of a model (and provider, and from date) set here',
        querystring: { type: 'object', required: ['model'], additionalProperties: false, properties: { model: { type: 'string' }, provider: { type: 'string' }, from: { type: 'string' } } },
        response: { 200: { type: 'object', properties: { deleted: { type: 'boolean' } } }, 404: errorSchema, 409: errorSchema, ...authErrors },
      },
    },
    async (request) => {
      const prices = book();
      const key = { model: request.query.model, provider: request.query.provider || undefined, from: request.query.from || undefined };
      if (!(await deletePrice(deps.store, key, tokenActor(request)))) {
        const inFile = prices.entries().some((p) => p.source === 'file' && p.model === key.model && p.provider === key.provider && p.from === key.from);
        if (inFile) throw new GatewayError(409, 'price_in_file', `The price of ${key.model} comes from the providers file; change it there (and restart), or override it with PUT /admin/api/v1/prices.`);
        throw new GatewayError(404, 'price_not_found', `No price set for model "${key.model}"${key.provider ? `, provider "${key.provider}"` : ''}${key.from ? `, from ${key.from}` : ''}. GET /admin/api/v1/prices lists them.`);
      }
      await prices.reload();
      return { deleted: true };
    },
  );
}
