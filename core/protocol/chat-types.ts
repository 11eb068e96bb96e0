// The chat-completions protocol as the gateway reads and writes it: the fields translation
// handles, typed; everything else stays reachable through the index signatures so that an
// unknown field can be named in a refusal instead of vanishing.

export type Json = Record<string, unknown>;

export interface ChatTextPart {
  type: 'text';
  text: string;
}

export interface ChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' | null };
}

export interface ChatFilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}

export type ChatContentPart = ChatTextPart | ChatImagePart | ChatFilePart | ({ type: string } & Json);

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One entry of `thinking_blocks`: a messages-protocol thinking block carried on a chat message. */
export type ChatThinkingBlock = { type: 'thinking'; thinking?: string; signature?: string } | { type: 'redacted_thinking'; data: string };

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'function' | string;
  content?: string | ChatContentPart[] | null;
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  refusal?: string | null;
  /** Reasoning text (the de-facto field of reasoning chat-completions servers). */
  reasoning_content?: string | null;
  thinking_blocks?: ChatThinkingBlock[];
  [field: string]: unknown;
}

export interface ChatFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Json; strict?: boolean | null };
}

export type ChatToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } } | ({ type: string } & Json);

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean } | null;
  temperature?: number | null;
  top_p?: number | null;
  stop?: string | string[] | null;
  tools?: ChatFunctionTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean | null;
  reasoning_effort?: string | null;
  response_format?: { type: string; json_schema?: { name?: string; schema?: Json; strict?: boolean | null; description?: string } } | null;
  user?: string;
  [field: string]: unknown;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; [field: string]: unknown } | null;
  completion_tokens_details?: { reasoning_tokens?: number; [field: string]: unknown } | null;
  /** Messages-protocol cache counts, kept beside the chat fields when the upstream reported them. */
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  [field: string]: unknown;
}

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export interface ChatResponseMessage {
  role: 'assistant';
  content: string | null;
  refusal: string | null;
  tool_calls?: ChatToolCall[];
  reasoning_content?: string;
  thinking_blocks?: ChatThinkingBlock[];
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{ index: number; message: ChatResponseMessage; logprobs: null; finish_reason: ChatFinishReason | null }>;
  usage?: ChatUsage;
}

export interface ChatToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChatDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: string | null;
  reasoning_content?: string;
  thinking_blocks?: ChatThinkingBlock[];
  tool_calls?: ChatToolCallDelta[];
}

export interface ChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: ChatDelta; logprobs: null; finish_reason: ChatFinishReason | null }>;
  usage?: ChatUsage | null;
}
