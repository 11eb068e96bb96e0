// A messages-protocol request rewritten for a cloud that hosts Claude (Bedrock, Vertex): the model
// leaves the body (the cloud names it in the URL), the cloud's `anthropic_version` comes in, and the
// client's betas and fields are kept where the cloud's table accepts them and dropped (and noted)
// where it does not.
import { noteDroppedFeature } from './dropped-features.ts';
import type { ClaudeFeatureTable } from './claude-features.ts';

export interface CloudClaudeBody {
  body: Record<string, unknown>;
  /** The accepted betas, for a cloud that takes them as a header. */
  betas: string[];
}

export interface CloudClaudeOptions {
  provider: string;
  table: ClaudeFeatureTable;
  anthropicVersion: string;
  /** The client's `anthropic-beta` header (comma-separated), if any. */
  betaHeader?: string;
  /** Bedrock takes the betas in the body as `anthropic_beta`. */
  betasInBody: boolean;
}

export function cloudClaudeBody(json: Record<string, unknown>, options: CloudClaudeOptions): CloudClaudeBody {
  const { provider, table } = options;
  const body: Record<string, unknown> = { anthropic_version: options.anthropicVersion };
  for (const name in json) {
    if (name === 'model' || name === 'anthropic_version' || name === 'anthropic_beta') continue;
    if (name === 'stream' && !table.bodyFields.has('stream')) continue;
    if (table.bodyFields.has(name)) body[name] = json[name];
    else noteDroppedFeature({ provider, kind: 'field', name });
  }
  const requested = [
    ...(options.betaHeader ?? '').split(','),
    ...(Array.isArray(json.anthropic_beta) ? json.anthropic_beta.filter((b): b is string => typeof b === 'string') : []),
  ].map((b) => b.trim()).filter((b) => b !== '');
  const betas: string[] = [];
  for (const beta of new Set(requested)) {
    if (table.betas.has(beta)) betas.push(beta);
    else noteDroppedFeature({ provider, kind: 'beta', name: beta });
  }
  if (options.betasInBody && betas.length > 0) body.anthropic_beta = betas;
  return { body, betas };
}
