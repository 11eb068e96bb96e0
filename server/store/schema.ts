// Table shapes as the query layer sees them. Timestamps are ISO-8601 strings in both dialects.
import type { Generated } from 'kysely';

export interface UsersTable {
  id: string;
  username: string;
  password_hash: string;
  is_admin: number;
  disabled: number;
  created_at: string;
  /** JSON array of public model names. */
  models: string | null;
  budget_tokens_day: number | string | null;
  budget_tokens_month: number | string | null;
  budget_requests_day: number | string | null;
  budget_requests_month: number | string | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string | null;
  key_hash: string;
  hint: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  /** JSON array of public model names. */
  models: string | null;
  rate_limit: number | null;
  budget_tokens_day: number | string | null;
  budget_tokens_month: number | string | null;
  budget_requests_day: number | string | null;
  budget_requests_month: number | string | null;
}

/** One row per hour, user, key ('' for the web apps) and model. */
export interface UsageTable {
  hour: string;
  user_id: string;
  key_id: string;
  model: string;
  requests: number | string;
  input_tokens: number | string;
  output_tokens: number | string;
  errors: number | string;
}

/** One row per hour, user, key, client session and model; only for requests that named a session. */
export interface UsageSessionsTable {
  hour: string;
  user_id: string;
  key_id: string;
  session_id: string;
  model: string;
  requests: number | string;
  input_tokens: number | string;
  output_tokens: number | string;
  errors: number | string;
}

export interface UsageOutcomesTable {
  hour: string;
  user_id: string;
  key_id: string;
  model: string;
  outcome: string;
  count: number | string;
}

export interface UsageErrorsTable {
  hour: string;
  user_id: string;
  key_id: string;
  model: string;
  status: number;
  count: number | string;
}

export interface ConversationsTable {
  id: string;
  user_id: string;
  title: string;
  model: string;
  /** Sent before the messages of every turn; null: none. */
  system_prompt: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConversationMessagesTable {
  id: string;
  conversation_id: string;
  seq: number;
  role: string;
  content: string;
  stopped: number;
  /** Tokens of the turn that produced an assistant message, as its provider counted them. */
  input_tokens: number | null;
  output_tokens: number | null;
  created_at: string;
}

export interface OperatorTokensTable {
  id: string;
  name: string | null;
  token_hash: string;
  hint: string;
  created_at: string;
  last_used_at: string | null;
}

export interface AuditLogTable {
  id: string;
  at: string;
  actor: string;
  address: string;
  action: string;
  target: string;
  /** JSON object; never a secret. */
  details: string | null;
}

/**
 * One API request made with a key; never body content. Since migration 0012 the id is assigned by
 * the database and grows with `at` (pruning walks the oldest ids).
 */
export interface RequestLogTable {
  /** SQLite: the rowid; PostgreSQL: a bigint identity (read back as a string). */
  id: Generated<number | string>;
  /** Epoch milliseconds (PostgreSQL bigint: read back as a string). */
  at: number | string;
  user_id: string;
  key_id: string;
  model: string;
  status: number;
  input_tokens: number | string;
  output_tokens: number | string;
  latency_ms: number;
  session_id: string | null;
  outcome: string | null;
  /** The name the client asked for, when an alias served it under another model (migration 0013). */
  requested_model: string | null;
}

/** How far a usage journal's entries are in the database, per sink (migration 0015). */
export interface UsageJournalMarksTable {
  journal_id: string;
  /** 'usage' or 'request_log'. */
  sink: string;
  /** PostgreSQL bigint: read back as a string. */
  seq: number | string;
}

export interface ImageHistoryTable {
  id: string;
  user_id: string;
  prompt: string;
  model: string;
  size: string;
  created_at: string;
  byte_length: number | string;
  /** PNG bytes (blob in SQLite, bytea in PostgreSQL). */
  png: Buffer | Uint8Array;
}

export interface Database {
  conversations: ConversationsTable;
  conversation_messages: ConversationMessagesTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  operator_tokens: OperatorTokensTable;
  audit_log: AuditLogTable;
  image_history: ImageHistoryTable;
  usage: UsageTable;
  usage_errors: UsageErrorsTable;
  usage_sessions: UsageSessionsTable;
  usage_outcomes: UsageOutcomesTable;
  request_log: RequestLogTable;
  usage_journal_marks: UsageJournalMarksTable;
  schema_probe: { id: Generated<number> };
}
