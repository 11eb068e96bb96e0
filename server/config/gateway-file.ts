// The providers file (YAML or JSON): named upstream providers, their models, and limits.
// Secrets are referenced by environment variable name; an inline secret is refused.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ConfigError } from '../errors/config-error.ts';
import { DEFAULT_ROUTING, type ModelKind, type RoutingSettings } from '../providers/provider.ts';
import { DEFAULT_TRANSLATION, type TranslationSettings } from '../protocols/translation.ts';
import type { ModelAlias } from '../providers/model-aliases.ts';
import type { GroupPolicy } from '../store/group-policies-repo.ts';
import { parseGroups } from './group-entries.ts';
import type { Price } from '../pricing/price.ts';
import { parsePrice, PriceInputError } from '../pricing/price-input.ts';
import { priceId } from '../pricing/price.ts';
import { parseCloudFields, type CloudFields } from './cloud-provider-fields.ts';

// Loaded when a providers file is read: a gateway on the built-in demo provider never needs it.
function parseYaml(text: string): unknown {
  return (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
}

export type ProviderType = 'openai' | 'anthropic' | 'gemini' | 'bedrock' | 'vertex' | 'azure' | 'demo';

export interface ModelEntry {
  name: string;
  upstreamModel: string;
  kind: ModelKind;
  /** Overrides the provider's priority and weight for this model. */
  priority?: number;
  weight?: number;
}

export interface ProviderConfig {
  name: string;
  type: ProviderType;
  baseUrl?: string;
  apiKeyEnv?: string;
  authHeader: 'x-api-key' | 'bearer';
  timeoutMs: number;
  /** Connections kept to the upstream at most (default: as many as requests in flight). */
  maxConnections?: number;
  models: ModelEntry[];
  chunkDelayMs?: number;
  /** An `openai` upstream that also serves the Responses API (/responses): Responses clients pass through. */
  responsesApi: boolean;
  /** demo only: pixels one images request may ask for, and renders run at once. */
  imagePixelBudget?: number;
  imageConcurrency?: number;
  /** Among providers listing the same model name: lower is tried first. */
  priority?: number;
  /** Share of traffic among providers of equal priority. */
  weight?: number;
  routing: RoutingSettings;
  translation: TranslationSettings;
  /** bedrock, vertex and azure: region, project, API version and credential variables. */
  cloud?: CloudFields;
}

export interface LimitsConfig {
  requestsPerMinute?: number;
  bodyLimitBytes?: number;
}

export interface GatewayFileConfig {
  providers: ProviderConfig[];
  /** Public names (exact or globs) that served models answer to. */
  aliases: ModelAlias[];
  limits: LimitsConfig;
  /** What models cost (one currency for the whole table). */
  prices: Price[];
  /** Model allowlists of identity-provider groups (the database's entries win). */
  groups: GroupPolicy[];
}

const TYPES: ProviderType[] = ['openai', 'anthropic', 'gemini', 'bedrock', 'vertex', 'azure', 'demo'];
const KINDS: ModelKind[] = ['text', 'image', 'embedding'];
const SECRET_FIELDS = ['apiKey', 'api_key', 'key', 'token', 'secret', 'password'];
const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_FILE_RETRIES = 1;

function fail(file: string, field: string, problem: string): never {
  throw new ConfigError('bad_config_file', `${file}: ${field} ${problem}.`, 'Fix the providers file; see server/README.md for its format.');
}

function positiveInteger(file: string, field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(file, field, 'must be a whole number >= 0');
  return value;
}

function atLeastOne(file: string, field: string, value: number | undefined): number | undefined {
  if (value === 0) fail(file, field, 'must be at least 1 (leave it out for no limit)');
  return value;
}

export function loadGatewayFile(file: string): GatewayFileConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError('config_unreadable', `Cannot read the providers file ${file}: ${(error as NodeJS.ErrnoException).code ?? error}.`, 'Check the --config path.');
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ConfigError('bad_config_file', `${file} is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`, 'Fix the syntax.');
  }
  return parseGatewayConfig(file, raw);
}

export function parseGatewayConfig(file: string, raw: unknown): GatewayFileConfig {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) fail(file, 'the top level', 'must be a mapping with a `providers` list');
  const top = raw as Record<string, unknown>;
  if (!Array.isArray(top.providers) || top.providers.length === 0) fail(file, 'providers', 'must be a non-empty list');
  const names = new Set<string>();
  const providers = top.providers.map((entry, i) => {
    const at = `providers[${i}]`;
    if (!entry || typeof entry !== 'object') fail(file, at, 'must be a mapping');
    const p = entry as Record<string, unknown>;
    for (const secret of SECRET_FIELDS) {
      if (secret in p) fail(file, `${at}.${secret}`, 'is an inline secret; put the key in an environment variable and name it with apiKeyEnv');
    }
    if (typeof p.name !== 'string' || !/^[A-Za-z0-9._-]+$/.test(p.name)) fail(file, `${at}.name`, 'must be a name of letters, digits, . _ -');
    if (names.has(p.name)) fail(file, `${at}.name`, `"${p.name}" is used twice`);
    names.add(p.name);
    if (!TYPES.includes(p.type as ProviderType)) fail(file, `${at}.type`, `must be one of ${TYPES.join(', ')}`);
    const type = p.type as ProviderType;
    const cloud = parseCloudFields(type, p, (field, problem) => fail(file, `${at}.${field}`, problem));
    if (type !== 'demo' && !cloud) {
      // A gemini provider may leave it out: the public Gemini API root.
      const optional = type === 'gemini' && p.baseUrl === undefined;
      if (!optional && (typeof p.baseUrl !== 'string' || !/^https?:\/\//.test(p.baseUrl))) fail(file, `${at}.baseUrl`, 'must be an http(s) URL');
      if (type === 'gemini' && typeof p.baseUrl === 'string' && /\/v1(beta)?\/?$/.test(p.baseUrl)) {
        fail(file, `${at}.baseUrl`, 'must be the API root without a version (the gateway adds /v1beta): remove the trailing /v1beta');
      }
    }
    if (type !== 'demo' && p.apiKeyEnv !== undefined && (typeof p.apiKeyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.apiKeyEnv))) {
      fail(file, `${at}.apiKeyEnv`, 'must be an environment variable name');
    }
    if (p.authHeader !== undefined && p.authHeader !== 'x-api-key' && p.authHeader !== 'bearer') fail(file, `${at}.authHeader`, 'must be x-api-key or bearer');
    if (p.responsesApi !== undefined && typeof p.responsesApi !== 'boolean') fail(file, `${at}.responsesApi`, 'must be true or false');
    if (p.responsesApi === true && type !== 'openai') fail(file, `${at}.responsesApi`, 'applies to openai providers only');
    const models = parseModels(file, at, type, p.models);
    if (p.maxTokensField !== undefined && p.maxTokensField !== 'max_tokens' && p.maxTokensField !== 'max_completion_tokens') {
      fail(file, `${at}.maxTokensField`, 'must be max_tokens or max_completion_tokens');
    }
    const defaultMaxTokens = positiveInteger(file, `${at}.defaultMaxTokens`, p.defaultMaxTokens);
    if (defaultMaxTokens === 0) fail(file, `${at}.defaultMaxTokens`, 'must be at least 1');
    if (type === 'demo' && p.maxConnections !== undefined) fail(file, `${at}.maxConnections`, 'applies to providers with a baseUrl only');
    return {
      name: p.name,
      type,
      baseUrl: p.baseUrl as string | undefined,
      apiKeyEnv: p.apiKeyEnv as string | undefined,
      authHeader: (p.authHeader as 'x-api-key' | 'bearer' | undefined) ?? 'x-api-key',
      timeoutMs: positiveInteger(file, `${at}.timeoutMs`, p.timeoutMs) ?? DEFAULT_TIMEOUT_MS,
      maxConnections: atLeastOne(file, `${at}.maxConnections`, positiveInteger(file, `${at}.maxConnections`, p.maxConnections)),
      models,
      chunkDelayMs: positiveInteger(file, `${at}.chunkDelayMs`, p.chunkDelayMs),
      responsesApi: p.responsesApi === true,
      imagePixelBudget: positiveInteger(file, `${at}.imagePixelBudget`, p.imagePixelBudget),
      imageConcurrency: positiveInteger(file, `${at}.imageConcurrency`, p.imageConcurrency),
      ...routingFields(file, at, p),
      routing: {
        retries: positiveInteger(file, `${at}.retries`, p.retries) ?? DEFAULT_FILE_RETRIES,
        cooldownAfterFailures: positiveInteger(file, `${at}.cooldownAfterFailures`, p.cooldownAfterFailures) ?? DEFAULT_ROUTING.cooldownAfterFailures,
        cooldownMs: positiveInteger(file, `${at}.cooldownMs`, p.cooldownMs) ?? DEFAULT_ROUTING.cooldownMs,
      },
      translation: {
        defaultMaxTokens: defaultMaxTokens ?? DEFAULT_TRANSLATION.defaultMaxTokens,
        maxTokensField: (p.maxTokensField as TranslationSettings['maxTokensField'] | undefined) ?? DEFAULT_TRANSLATION.maxTokensField,
      },
      ...(cloud ? { cloud } : {}),
    } satisfies ProviderConfig;
  });
  const limitsRaw = (top.limits ?? {}) as Record<string, unknown>;
  if (typeof limitsRaw !== 'object' || Array.isArray(limitsRaw)) fail(file, 'limits', 'must be a mapping');
  return {
    providers,
    aliases: parseAliases(file, top.aliases, new Set(providers.flatMap((p) => p.models.map((m) => m.name)))),
    prices: parsePrices(file, top.prices, new Set(providers.map((p) => p.name))),
    groups: parseGroups(file, top.groups),
    limits: {
      requestsPerMinute: positiveInteger(file, 'limits.requestsPerMinute', limitsRaw.requestsPerMinute),
      bodyLimitBytes: positiveInteger(file, 'limits.bodyLimitBytes', limitsRaw.bodyLimitBytes),
    },
  };
}

function parsePrices(file: string, value: unknown, providerNames: ReadonlySet<string>): Price[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) fail(file, 'prices', 'must be a list of {model, currency, per, input, output, …}');
  const seen = new Set<string>();
  const prices = value.map((entry, i) => {
    let price: Price;
    try {
      price = parsePrice(entry);
    } catch (error) {
      if (error instanceof PriceInputError) fail(file, `prices[${i}].${error.field}`, error.message.slice(error.field.length + 2));
      throw error;
    }
    if (price.provider && !providerNames.has(price.provider)) fail(file, `prices[${i}].provider`, `names no provider of this file (${[...providerNames].join(', ')})`);
    if (seen.has(priceId(price))) fail(file, `prices[${i}]`, `repeats the model, provider and from date of an earlier entry`);
    seen.add(priceId(price));
    return price;
  });
  const currencies = [...new Set(prices.map((p) => p.currency))];
  if (currencies.length > 1) fail(file, 'prices', `must all use one currency; found ${currencies.join(', ')}`);
  return prices;
}

function parseAliases(file: string, value: unknown, served: ReadonlySet<string>): ModelAlias[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(file, 'aliases', 'must be a list of {name, model}');
  return value.map((entry, i) => {
    const at = `aliases[${i}]`;
    const alias = (entry ?? {}) as Record<string, unknown>;
    if (typeof alias.name !== 'string' || alias.name.trim() === '') fail(file, `${at}.name`, 'must be a model name or a glob such as claude-opus-*');
    if (typeof alias.model !== 'string' || !served.has(alias.model)) fail(file, `${at}.model`, `must name a model a provider serves (${[...served].join(', ')})`);
    if (served.has(alias.name)) fail(file, `${at}.name`, `"${alias.name}" is a served model already; an alias cannot hide it`);
    return { name: alias.name, model: alias.model };
  });
}

/** priority and weight, present only when the file sets them (defaults live in the router). */
function routingFields(file: string, at: string, entry: Record<string, unknown>): { priority?: number; weight?: number } {
  const fields: { priority?: number; weight?: number } = {};
  const priority = positiveInteger(file, `${at}.priority`, entry.priority);
  const weight = positiveInteger(file, `${at}.weight`, entry.weight);
  if (priority !== undefined) fields.priority = priority;
  if (weight !== undefined) fields.weight = weight;
  return fields;
}

function parseModels(file: string, at: string, type: ProviderType, value: unknown): ModelEntry[] {
  if (value === undefined && type === 'demo') return [];
  if (!Array.isArray(value) || value.length === 0) fail(file, `${at}.models`, 'must be a non-empty list of model names');
  return value.map((m, j) => {
    const where = `${at}.models[${j}]`;
    if (typeof m === 'string' && m) return { name: m, upstreamModel: m, kind: 'text' as const };
    if (!m || typeof m !== 'object') fail(file, where, 'must be a name or {name, upstreamModel, kind, priority, weight}');
    const entry = m as Record<string, unknown>;
    if (typeof entry.name !== 'string' || !entry.name) fail(file, `${where}.name`, 'must be a non-empty string');
    if (entry.kind !== undefined && !KINDS.includes(entry.kind as ModelKind)) fail(file, `${where}.kind`, `must be one of ${KINDS.join(', ')}`);
    return {
      name: entry.name,
      upstreamModel: typeof entry.upstreamModel === 'string' && entry.upstreamModel ? entry.upstreamModel : entry.name,
      kind: (entry.kind as ModelKind | undefined) ?? 'text',
      ...routingFields(file, where, entry),
    };
  });
}
