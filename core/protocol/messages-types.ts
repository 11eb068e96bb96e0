// The messages protocol as the gateway reads and writes it: the blocks and fields translation
// handles, typed; other fields stay reachable so a refusal can name them.
import type { Json } from './chat-types.ts';

export interface TextBlock {
  type: 'text';
  text: string;
  cache_control?: Json | null;
  citations?: unknown;
}

export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } | ({ type: string } & Json);
  cache_control?: Json | null;
}

export interface DocumentBlock {
  type: 'document';
  source: { type: 'base64'; media_type: string; data: string } | ({ type: string } & Json);
  title?: string | null;
  context?: string | null;
  citations?: unknown;
  cache_control?: Json | null;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: Json | null;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<TextBlock | ImageBlock | ({ type: string } & Json)>;
  is_error?: boolean;
  cache_control?: Json | null;
}

export type ContentBlock = TextBlock | ImageBlock | DocumentBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ToolResultBlock;

export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | Array<ContentBlock | ({ type: string } & Json)>;
}

export interface MessagesTool {
  type?: 'custom' | string | null;
  name: string;
  description?: string;
  input_schema: Json;
  strict?: boolean;
  cache_control?: Json | null;
  [field: string]: unknown;
}

export type MessagesToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type ThinkingConfig =
  | { type: 'enabled'; budget_tokens: number; display?: string | null }
  | { type: 'disabled' }
  | { type: 'adaptive'; display?: string | null }
  | ({ type: string } & Json);

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: MessageParam[];
  system?: string | TextBlock[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  tools?: MessagesTool[];
  tool_choice?: MessagesToolChoice;
  thinking?: ThinkingConfig;
  output_config?: { effort?: string | null; format?: { type: 'json_schema'; schema: Json } | null };
  metadata?: { user_id?: string | null };
  [field: string]: unknown;
}

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number } | null;
  [field: string]: unknown;
}

export type ResponseBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock;

export interface MessagesResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ResponseBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  usage: MessagesUsage;
}

/** One event of a messages stream; `type` repeats the SSE event name. */
export type MessagesStreamEvent =
  | { type: 'message_start'; message: MessagesResponse }
  | { type: 'content_block_start'; index: number; content_block: ResponseBlock | ({ type: string } & Json) }
  | { type: 'content_block_delta'; index: number; delta: MessagesDelta }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: StopReason | null; stop_sequence: string | null }; usage: Partial<MessagesUsage> }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type: string; message: string } };

export type MessagesDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'input_json_delta'; partial_json: string }
  | ({ type: string } & Json);
