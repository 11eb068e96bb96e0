// Which messages-protocol betas and body fields each cloud that hosts Claude accepts, checked
// against its documentation on the date given. The clouds answer 400 for a beta or field they do
// not know, while clients (Claude Code above all) add new ones with every release: an unknown one is
// dropped, logged and counted instead, so a client update never breaks a working setup. Update a
// table (and its date) when a cloud starts accepting a feature.
export interface ClaudeFeatureTable {
  /** The cloud, as in the providers file's type. */
  readonly upstream: 'bedrock' | 'vertex';
  /** When this table was last checked against the cloud's documentation. */
  readonly checked: string;
  readonly betas: ReadonlySet<string>;
  /** Top-level request body fields it accepts (besides the ones the gateway writes itself). */
  readonly bodyFields: ReadonlySet<string>;
}

const COMMON_FIELDS = ['messages', 'system', 'max_tokens', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'tools', 'tool_choice', 'thinking', 'context_management', 'output_config'];

const COMMON_BETAS = [
  'computer-use-2024-10-22',
  'computer-use-2025-01-24',
  'computer-use-2025-11-24',
  'token-efficient-tools-2025-02-19',
  'interleaved-thinking-2025-05-14',
  'output-128k-2025-02-19',
  'dev-full-thinking-2025-05-14',
  'context-1m-2025-08-07',
  'context-management-2025-06-27',
  'effort-2025-11-24',
  'tool-search-tool-2025-10-19',
  'tool-examples-2025-10-29',
];

export const BEDROCK_CLAUDE_FEATURES: ClaudeFeatureTable = {
  upstream: 'bedrock',
  checked: '2026-11-27',
  betas: new Set(COMMON_BETAS),
  bodyFields: new Set(COMMON_FIELDS),
};

export const VERTEX_CLAUDE_FEATURES: ClaudeFeatureTable = {
  upstream: 'vertex',
  checked: '2026-11-27',
  betas: new Set([...COMMON_BETAS, 'fine-grained-tool-streaming-2025-05-14']),
  // Vertex reads `stream` from the body beside the :streamRawPredict method.
  bodyFields: new Set([...COMMON_FIELDS, 'metadata', 'stream']),
};
