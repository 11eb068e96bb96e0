// The Responses API as the gateway reads and writes it (shapes as in the official `openai` SDK's
// type definitions): the request fields and input items translation handles, the response object,
// its output items, usage, and the stream events. Index signatures keep every other field
// reachable, so a refusal can name it instead of it vanishing.
import type { Json } from './chat-types.ts';

export interface ResponsesInputText {
  type: 'input_text';
  text: string;
}

export interface ResponsesInputImage {
  type: 'input_image';
  image_url?: string | null;
  file_id?: string | null;
  detail?: 'low' | 'high' | 'auto' | 'original' | null;
}

export interface ResponsesInputFile {
  type: 'input_file';
  file_data?: string;
  file_id?: string | null;
  file_url?: string;
  filename?: string;
}

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs?: unknown[];
}

export interface ResponsesRefusal {
  type: 'refusal';
  refusal: string;
}

export type ResponsesContentPart = ResponsesInputText | ResponsesInputImage | ResponsesInputFile | ResponsesOutputText | ResponsesRefusal | ({ type: string } & Json);

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface ResponsesMessageItem {
  type: 'message';
  id: string;
  role: 'assistant';
  status: ItemStatus;
  content: Array<ResponsesOutputText | ResponsesRefusal>;
}

export interface ResponsesFunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: ItemStatus;
  /** Set for a function declared inside a `namespace` tool. */
  namespace?: string;
}

export interface ResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  /** Opaque to the client; the gateway keeps a messages upstream's thinking signature here. */
  encrypted_content?: string | null;
  status?: ItemStatus;
}

export type ResponsesOutputItem = ResponsesMessageItem | ResponsesFunctionCallItem | ResponsesReasoningItem;

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponseStatus = 'completed' | 'failed' | 'in_progress' | 'incomplete';

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  model: string;
  output: ResponsesOutputItem[];
  usage: ResponsesUsage | null;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  [field: string]: unknown;
}

/** The terminal events of a Responses stream: nothing follows them. */
export const RESPONSES_TERMINAL_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);
