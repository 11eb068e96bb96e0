// Public model name -> the providers that serve it. Several providers may list the same name:
// `candidates` orders them by priority and weight, leaving out providers cooling down after
// failures (unless every provider of the model is cooling down: then they are all tried, as probes).
import type { ProviderConfig } from '../config/gateway-file.ts';
import { ConfigError } from '../errors/config-error.ts';
import { AnthropicProvider } from './anthropic/anthropic-provider.ts';
import { buildCloudProvider } from './cloud-providers.ts';
import { GEMINI_PUBLIC_BASE_URL, GeminiProvider } from './gemini/gemini-provider.ts';
import { DEFAULT_IMAGE_CONCURRENCY, DEFAULT_IMAGE_PIXEL_BUDGET } from './demo/demo-images.ts';
import { DemoProvider } from './demo/demo-provider.ts';
import { OpenAiProvider } from './openai/openai-provider.ts';
import { DEFAULT_ROUTING, type ModelInfo, type ModelKind, type Provider, type RoutingSettings } from './provider.ts';
import { AliasTable, type ModelAlias } from './model-aliases.ts';
import { orderCandidates } from './routing/candidate-order.ts';
import { ProviderHealth } from './routing/provider-health.ts';

export interface Route {
  provider: Provider;
  model: ModelInfo;
}

interface RankedRoute extends Route {
  priority: number;
  weight: number;
}

export interface RouterOptions {
  random?: () => number;
  now?: () => number;
  /** Names that served models answer to (providers file `aliases`). */
  aliases?: readonly ModelAlias[];
}

export class ModelRouter {
  private readonly routes = new Map<string, RankedRoute[]>();
  readonly health: ProviderHealth;
  private readonly random: () => number;
  private readonly aliases: AliasTable;

  constructor(
    readonly providers: Provider[],
    options: RouterOptions = {},
  ) {
    this.health = new ProviderHealth(options.now);
    this.random = options.random ?? Math.random;
    this.aliases = new AliasTable(options.aliases);
    for (const provider of providers) {
      for (const model of provider.models) {
        const list = this.routes.get(model.id) ?? [];
        list.push({ provider, model, priority: model.priority ?? 1, weight: model.weight ?? 1 });
        this.routes.set(model.id, list);
      }
    }
    for (const list of this.routes.values()) list.sort((a, b) => a.priority - b.priority || b.weight - a.weight);
  }

  /** The routes of a served name, or of the model an alias names. */
  private routesOf(name: string): RankedRoute[] | undefined {
    const routes = this.routes.get(name);
    if (routes) return routes;
    const target = this.aliases.target(name);
    return target === undefined ? undefined : this.routes.get(target);
  }

  /** The preferred route of a model (lowest priority, then highest weight, then file order). */
  resolve(model: string): Route | undefined {
    const first = this.routesOf(model)?.[0];
    return first && { provider: first.provider, model: first.model };
  }

  /** Every route of a model in the order to try them for one request. */
  candidates(model: string): Route[] {
    const all = this.routesOf(model) ?? [];
    // One route is tried whatever its health says (as when every route is cooling down).
    if (all.length <= 1) return all;
    const ready = all.filter((r) => this.health.available(r.provider.name, routingOf(r.provider)));
    return orderCandidates(ready.length > 0 ? ready : all, this.random).map(({ provider, model: info }) => ({ provider, model: info }));
  }

  /** Served models and exact aliases (listed under their own name) of the given kinds. */
  list(...kinds: ModelKind[]): ModelInfo[] {
    const served = [...this.routes.values()].map((list) => list[0]!.model);
    const aliased = this.aliases.exactNames().flatMap(([name, target]) => {
      const model = this.routes.get(target)?.[0]?.model;
      return model && !this.routes.has(name) ? [{ ...model, id: name, displayName: `${name} (alias of ${target})` }] : [];
    });
    return [...served, ...aliased].filter((m) => kinds.includes(m.kind));
  }

  async close(): Promise<void> {
    await Promise.all(this.providers.map((p) => p.close()));
  }
}

export function routingOf(provider: Provider): RoutingSettings {
  return provider.routing ?? DEFAULT_ROUTING;
}

export function buildProviders(configs: ProviderConfig[], env: NodeJS.ProcessEnv): Provider[] {
  return configs.map((config) => {
    const created = Math.floor(Date.now() / 1000);
    const models: ModelInfo[] = config.models.map((m) => ({
      id: m.name,
      upstreamModel: m.upstreamModel,
      kind: m.kind,
      created,
      priority: m.priority ?? config.priority,
      weight: m.weight ?? config.weight,
    }));
    const common = { name: config.name, timeoutMs: config.timeoutMs, maxConnections: config.maxConnections, models, routing: config.routing, translation: config.translation };
    const cloud = buildCloudProvider(config, common, env);
    if (cloud) return cloud;
    let apiKey: string | undefined;
    if (config.apiKeyEnv) {
      apiKey = env[config.apiKeyEnv];
      if (!apiKey) {
        throw new ConfigError(
          'missing_provider_key',
          `Provider "${config.name}" takes its key from $${config.apiKeyEnv}, which is not set.`,
          `Export ${config.apiKeyEnv} in the gateway's environment, or remove apiKeyEnv for an upstream without authentication.`,
        );
      }
    }
    const credentialSource = config.apiKeyEnv ? `$${config.apiKeyEnv}` : undefined;
    switch (config.type) {
      case 'demo':
        return new DemoProvider({
          name: config.name,
          chunkDelayMs: config.chunkDelayMs,
          priority: config.priority,
          weight: config.weight,
          routing: config.routing,
          imageLimits: { pixelBudget: config.imagePixelBudget ?? DEFAULT_IMAGE_PIXEL_BUDGET, concurrency: config.imageConcurrency || DEFAULT_IMAGE_CONCURRENCY },
        });
      case 'openai':
        return new OpenAiProvider({ ...common, credentialSource, baseUrl: config.baseUrl!, apiKey, responsesApi: config.responsesApi });
      case 'anthropic':
        return new AnthropicProvider({ ...common, credentialSource, baseUrl: config.baseUrl!, apiKey, authHeader: config.authHeader });
      case 'gemini':
        return new GeminiProvider({ ...common, credentialSource, baseUrl: config.baseUrl ?? GEMINI_PUBLIC_BASE_URL, apiKey });
      default:
        throw new ConfigError('bad_config_file', `Provider "${config.name}" of type ${config.type} has no settings for its cloud.`, 'Fix the providers file; see server/README.md for its format.');
    }
  });
}
