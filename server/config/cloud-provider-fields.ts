// The fields of the cloud provider types in the providers file (bedrock, vertex, azure): where they
// run and which environment variables hold their credentials. Credentials are never inline.
export interface BedrockFields {
  type: 'bedrock';
  region: string;
  accessKeyIdEnv?: string;
  secretAccessKeyEnv?: string;
  sessionTokenEnv?: string;
}

export interface VertexFields {
  type: 'vertex';
  project: string;
  /** A region such as us-east5, or `global`. */
  region: string;
  /** Names the variable holding the path of a service-account JSON file. */
  credentialsFileEnv?: string;
  accessTokenEnv?: string;
}

export interface AzureFields {
  type: 'azure';
  /** Set: legacy deployment paths with ?api-version=; unset: the v1 API. */
  apiVersion?: string;
  accessTokenEnv?: string;
}

export type CloudFields = BedrockFields | VertexFields | AzureFields;

/** Inline credential fields, and the field that names the variable to put each in instead. */
const INLINE_CREDENTIALS: Record<string, string> = {
  accessKeyId: 'accessKeyIdEnv',
  secretAccessKey: 'secretAccessKeyEnv',
  sessionToken: 'sessionTokenEnv',
  accessToken: 'accessTokenEnv',
  credentials: 'credentialsFileEnv',
  credentialsFile: 'credentialsFileEnv',
  privateKey: 'credentialsFileEnv',
  private_key: 'credentialsFileEnv',
};
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REGION = /^[a-z0-9-]+$/;

type Fail = (field: string, problem: string) => never;

function envName(entry: Record<string, unknown>, field: string, fail: Fail): string | undefined {
  const value = entry[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !ENV_NAME.test(value)) fail(field, 'must be an environment variable name');
  return value;
}

function region(entry: Record<string, unknown>, fail: Fail, example: string): string {
  if (typeof entry.region !== 'string' || !REGION.test(entry.region)) fail('region', `must be a region name such as ${example}`);
  return entry.region;
}

/** The cloud fields of one provider entry, or undefined for the other types; `fail` reports a field of that entry. */
export function parseCloudFields(type: string, entry: Record<string, unknown>, fail: Fail): CloudFields | undefined {
  if (type !== 'bedrock' && type !== 'vertex' && type !== 'azure') return undefined;
  for (const [field, instead] of Object.entries(INLINE_CREDENTIALS)) {
    if (field in entry) fail(field, `is an inline credential; put it in an environment variable and name that with ${instead}`);
  }
  if (entry.baseUrl !== undefined && (typeof entry.baseUrl !== 'string' || !/^https?:\/\//.test(entry.baseUrl))) fail('baseUrl', 'must be an http(s) URL');
  switch (type) {
    case 'bedrock': {
      const fields: BedrockFields = {
        type,
        region: region(entry, fail, 'us-east-1'),
        accessKeyIdEnv: envName(entry, 'accessKeyIdEnv', fail),
        secretAccessKeyEnv: envName(entry, 'secretAccessKeyEnv', fail),
        sessionTokenEnv: envName(entry, 'sessionTokenEnv', fail),
      };
      const signed = fields.accessKeyIdEnv !== undefined || fields.secretAccessKeyEnv !== undefined;
      if (signed && (!fields.accessKeyIdEnv || !fields.secretAccessKeyEnv)) fail(fields.accessKeyIdEnv ? 'secretAccessKeyEnv' : 'accessKeyIdEnv', 'is needed too: an access key id goes with its secret');
      if (signed && entry.apiKeyEnv !== undefined) fail('apiKeyEnv', 'cannot be combined with accessKeyIdEnv: choose a Bedrock API key or an access key');
      if (!signed && entry.apiKeyEnv === undefined) fail('accessKeyIdEnv', 'and secretAccessKeyEnv (or apiKeyEnv, for a Bedrock API key) must name the variables holding the credentials');
      if (fields.sessionTokenEnv && !signed) fail('sessionTokenEnv', 'goes with accessKeyIdEnv and secretAccessKeyEnv');
      return fields;
    }
    case 'vertex': {
      if (typeof entry.project !== 'string' || !/^[a-z0-9][a-z0-9-:.]*$/.test(entry.project)) fail('project', 'must be a Google Cloud project id');
      const fields: VertexFields = {
        type,
        project: entry.project,
        region: region(entry, fail, 'us-east5 or global'),
        credentialsFileEnv: envName(entry, 'credentialsFileEnv', fail),
        accessTokenEnv: envName(entry, 'accessTokenEnv', fail),
      };
      if (entry.apiKeyEnv !== undefined) fail('apiKeyEnv', 'does not apply to vertex: use credentialsFileEnv (a service-account file) or accessTokenEnv');
      if (!fields.credentialsFileEnv === !fields.accessTokenEnv) fail('credentialsFileEnv', 'or accessTokenEnv (exactly one) must name the variable holding the credential');
      return fields;
    }
    case 'azure': {
      if (typeof entry.baseUrl !== 'string') fail('baseUrl', 'must be the resource root, e.g. https://my-resource.openai.azure.com');
      if (/\/openai(\/|$)/.test(entry.baseUrl)) fail('baseUrl', 'must be the resource root without /openai (the gateway adds /openai/v1 or /openai/deployments)');
      if (entry.apiVersion !== undefined && (typeof entry.apiVersion !== 'string' || !/^\d{4}-\d{2}-\d{2}(-preview)?$/.test(entry.apiVersion))) {
        fail('apiVersion', 'must be an API version such as 2024-10-21 (leave it out for the v1 API)');
      }
      const fields: AzureFields = { type, apiVersion: entry.apiVersion as string | undefined, accessTokenEnv: envName(entry, 'accessTokenEnv', fail) };
      if (!fields.accessTokenEnv === (entry.apiKeyEnv === undefined)) fail('apiKeyEnv', 'or accessTokenEnv (exactly one) must name the variable holding the credential');
      return fields;
    }
  }
}
