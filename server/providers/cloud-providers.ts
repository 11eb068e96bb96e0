// Builds the cloud providers (bedrock, vertex, azure) from the providers file, reading their
// credentials from the environment variables it names. A variable that is missing, or a service-account
// file that cannot be used, stops start-up with a message naming the provider and the variable;
// no message ever contains a credential.
import { readFileSync } from 'node:fs';
import type { ProviderConfig } from '../config/gateway-file.ts';
import { ConfigError } from '../errors/config-error.ts';
import { AzureProvider } from './azure/azure-provider.ts';
import { BedrockProvider } from './bedrock/bedrock-provider.ts';
import type { ModelInfo, Provider, RoutingSettings } from './provider.ts';
import type { TranslationSettings } from '../protocols/translation.ts';
import { CachedAccessToken } from './vertex/cached-access-token.ts';
import { serviceAccountTokenFetcher, type ServiceAccount } from './vertex/service-account-token.ts';
import { VertexProvider } from './vertex/vertex-provider.ts';

export interface CommonOptions {
  name: string;
  timeoutMs: number;
  maxConnections?: number;
  models: ModelInfo[];
  routing: RoutingSettings;
  translation: TranslationSettings;
}

function required(provider: string, variable: string, env: NodeJS.ProcessEnv, what: string): string {
  const value = env[variable];
  if (!value) {
    throw new ConfigError('missing_provider_key', `Provider "${provider}" takes its ${what} from $${variable}, which is not set.`, `Export ${variable} in the gateway's environment.`);
  }
  return value;
}

function serviceAccount(provider: string, variable: string, env: NodeJS.ProcessEnv): ServiceAccount {
  const path = required(provider, variable, env, 'service-account file path');
  const bad = (problem: string) =>
    new ConfigError('bad_provider_credentials', `Provider "${provider}": the service-account file ${path} (from $${variable}) ${problem}.`, `Point ${variable} at a service-account key file (JSON) downloaded from Google Cloud.`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw bad(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw bad('is not JSON');
  }
  if (json.type !== undefined && json.type !== 'service_account') throw bad(`holds a credential of type "${String(json.type)}", not a service account`);
  for (const field of ['client_email', 'private_key', 'token_uri']) {
    if (typeof json[field] !== 'string' || json[field] === '') throw bad(`has no ${field}`);
  }
  if (!/^https:\/\/|^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(json.token_uri as string)) throw bad('has a token_uri that is not an https URL');
  return {
    client_email: json.client_email as string,
    private_key: json.private_key as string,
    private_key_id: typeof json.private_key_id === 'string' ? json.private_key_id : undefined,
    token_uri: json.token_uri as string,
  };
}

export function buildCloudProvider(config: ProviderConfig, common: CommonOptions, env: NodeJS.ProcessEnv): Provider | undefined {
  const cloud = config.cloud;
  if (!cloud) return undefined;
  const name = config.name;
  switch (cloud.type) {
    case 'bedrock': {
      const signed = cloud.accessKeyIdEnv !== undefined;
      const credentialSource = signed
        ? [cloud.accessKeyIdEnv, cloud.secretAccessKeyEnv, cloud.sessionTokenEnv].filter(Boolean).map((v) => `$${v}`).join(', ')
        : `$${config.apiKeyEnv}`;
      return new BedrockProvider({
        ...common,
        region: cloud.region,
        baseUrl: config.baseUrl,
        credentialSource,
        credentials: signed
          ? {
              accessKeyId: required(name, cloud.accessKeyIdEnv!, env, 'access key id'),
              secretAccessKey: required(name, cloud.secretAccessKeyEnv!, env, 'secret access key'),
              sessionToken: cloud.sessionTokenEnv ? required(name, cloud.sessionTokenEnv, env, 'session token') : undefined,
            }
          : undefined,
        apiKey: signed ? undefined : required(name, config.apiKeyEnv!, env, 'Bedrock API key'),
      });
    }
    case 'vertex': {
      let accessToken: () => Promise<string>;
      let credentialSource: string;
      if (cloud.credentialsFileEnv) {
        const account = serviceAccount(name, cloud.credentialsFileEnv, env);
        const cached = new CachedAccessToken(serviceAccountTokenFetcher(account));
        accessToken = () => cached.get();
        credentialSource = `the service account ${account.client_email}, from the file named by $${cloud.credentialsFileEnv}`;
      } else {
        const token = required(name, cloud.accessTokenEnv!, env, 'access token');
        accessToken = () => Promise.resolve(token);
        credentialSource = `$${cloud.accessTokenEnv}; a given access token expires within the hour, a service-account file (credentialsFileEnv) is refreshed by the gateway`;
      }
      return new VertexProvider({ ...common, project: cloud.project, region: cloud.region, baseUrl: config.baseUrl, accessToken, credentialSource });
    }
    case 'azure': {
      const variable = cloud.accessTokenEnv ?? config.apiKeyEnv!;
      const secret = required(name, variable, env, cloud.accessTokenEnv ? 'Entra ID access token' : 'API key');
      return new AzureProvider({
        ...common,
        baseUrl: config.baseUrl!,
        apiVersion: cloud.apiVersion,
        apiKey: cloud.accessTokenEnv ? undefined : secret,
        accessToken: cloud.accessTokenEnv ? secret : undefined,
        credentialSource: `$${variable}`,
      });
    }
  }
}
