// Public model name -> the provider that serves it. The first provider listing a name wins;
// several providers per model (priorities, fallback) are a later step.
import { ConfigError } from '../errors/config-error.ts';
import type { ProviderConfig } from '../config/gateway-file.ts';
import { AnthropicProvider } from './anthropic/anthropic-provider.ts';
import { DemoProvider } from './demo/demo-provider.ts';
import { OpenAiProvider } from './openai/openai-provider.ts';
import type { ModelInfo, Provider } from './provider.ts';

export interface Route {
  provider: Provider;
  model: ModelInfo;
}

export class ModelRouter {
  private readonly routes = new Map<string, Route>();

  constructor(readonly providers: Provider[]) {
    for (const provider of providers) {
      for (const model of provider.models) if (!this.routes.has(model.id)) this.routes.set(model.id, { provider, model });
    }
  }

  resolve(model: string): Route | undefined {
    return this.routes.get(model);
  }

  list(kind: 'text' | 'image'): ModelInfo[] {
    return [...this.routes.values()].filter((r) => r.model.kind === kind).map((r) => r.model);
  }

  async close(): Promise<void> {
    await Promise.all(this.providers.map((p) => p.close()));
  }
}

export function buildProviders(configs: ProviderConfig[], env: NodeJS.ProcessEnv): Provider[] {
  return configs.map((config) => {
    const created = Math.floor(Date.now() / 1000);
    const models: ModelInfo[] = config.models.map((m) => ({ id: m.name, upstreamModel: m.upstreamModel, kind: m.kind, created }));
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
    switch (config.type) {
      case 'demo':
        return new DemoProvider({ name: config.name, chunkDelayMs: config.chunkDelayMs });
      case 'openai':
        return new OpenAiProvider({ name: config.name, baseUrl: config.baseUrl!, apiKey, timeoutMs: config.timeoutMs, models });
      case 'anthropic':
        return new AnthropicProvider({
          name: config.name,
          baseUrl: config.baseUrl!,
          apiKey,
          authHeader: config.authHeader,
          timeoutMs: config.timeoutMs,
          models,
        });
    }
  });
}
