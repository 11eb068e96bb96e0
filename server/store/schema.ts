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
  /** Money budgets in micro-units of the price table's currency (migration 0016). */
  budget_cost_day: number | string | null;
  budget_cost_month: number | string | null;
  /** operator | viewer | member (migration 0018); is_admin is 1 exactly for operators. */
  role: string;
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
  /** Money budgets in micro-units of the price table's currency (migration 0016). */
  budget_cost_day: number | string | null;
  budget_cost_month: number | string | null;
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
  /** Cost of the priced requests in micro-units of the price table's currency (migration 0016). */
  cost_micros: Generated<number | string>;
  /** Requests that reached a provider for a model without a price (cost unknown). */
  unpriced_requests: Generated<number | string>;
  /** Requests whose tokens and cost were estimated. */
  estimated_requests: Generated<number | string>;
  /** Requests that reached a provider (counted by request budgets). */
  provider_requests: Generated<number | string>;
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
  /** As in `usage` (migration 0016). */
  cost_micros: Generated<number | string>;
  unpriced_requests: Generated<number | string>;
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
  /** The support desk's columns (migration 0014); null on rows written before it. */
  request_id: string | null;
  method: string | null;
  path: string | null;
  protocol: string | null;
  error_code: string | null;
  error_message: string | null;
  key_hint: string | null;
  key_fingerprint: string | null;
  provider: string | null;
  upstream_status: number | null;
  upstream_request_id: string | null;
  attempts: number | null;
  /** Micro-units of the price table's currency; null = the model had no price (migration 0016). */
  cost_micros: number | string | null;
  /** 1 when the tokens behind the cost were estimated. */
  cost_estimated: number | null;
}

/** A deleted key's tombstone: a later request with its value is told apart from a value no key ever had. */
export interface DeletedKeysTable {
  key_hash: string;
  key_id: string;
  user_id: string;
  /** The owner's name then (the user may be deleted too). */
  username: string;
  name: string | null;
  hint: string;
  created_at: string;
  deleted_at: string;
}

/** The price table's entries set with `gwctl admin price set` or the operator API (migration 0016). */
export interface PricesTable {
  model: string;
  /** '' when the entry applies to every provider. */
  provider: string;
  /** '' when the entry applies from the start. */
  from_date: string;
  /** The whole entry as JSON (amounts are decimal strings). */
  price: string;
  updated_at: string;
}

/** A device asking to sign in (RFC 8628), until it collects its tokens or expires (migration 0017). */
export interface DeviceAuthorizationsTable {
  device_code_hash: string;
  /** Eight letters without separator, e.g. WDJBMJHT. */
  user_code: string;
  client_name: string;
  client_address: string;
  created_at: string;
  expires_at: string;
  interval_seconds: number;
  last_polled_at: string | null;
  /** pending | approved | denied */
  status: string;
  /** Who approved or denied it. */
  user_id: string | null;
}

/** One approved device sign-in: the family its access and refresh tokens belong to. */
export interface SignInGrantsTable {
  id: string;
  user_id: string;
  client_name: string;
  created_at: string;
  refreshed_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  grant_id: string;
  created_at: string;
  expires_at: string;
  /** Set when it was exchanged; a second use revokes the whole grant. */
  used_at: string | null;
}

export interface AccessTokensTable {
  token_hash: string;
  grant_id: string;
  expires_at: string;
}

/** An identity-provider subject linked to a gateway account (migration 0018). */
export interface UserIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  /** JSON array of the groups the provider reported at the last sign-in. */
  groups: string;
  created_at: string;
  last_sign_in_at: string;
}

/** The models a group's members may use (migration 0018). */
export interface GroupPoliciesTable {
  name: string;
  /** JSON array of public model names. */
  models: string;
  updated_at: string;
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
  deleted_keys: DeletedKeysTable;
  served_models: { instance: string; models: string; announced_at: string };
  /** Aliased requests by the name the client asked for (migration 0026). */
  usage_requested_models: { hour: string; user_id: string; key_id: string; model: string; requested_model: string; count: number | string };
  prices: PricesTable;
  device_authorizations: DeviceAuthorizationsTable;
  sign_in_grants: SignInGrantsTable;
  refresh_tokens: RefreshTokensTable;
  access_tokens: AccessTokensTable;
  user_identities: UserIdentitiesTable;
  group_policies: GroupPoliciesTable;
  usage_journal_marks: UsageJournalMarksTable;
  schema_probe: { id: Generated<number> };
}
