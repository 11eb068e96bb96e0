// Whether an error means "the database cannot be reached or answer right now" (connection refused
// or dropped, the server restarting, a pool with no connection to give, a statement timeout), as
// opposed to a bug. Such failures are answered 503 with Retry-After, and the gateway recovers by
// itself when the database is back.

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
/** PostgreSQL SQLSTATE classes and codes: connection exceptions, operator intervention, timeouts. */
const SQLSTATE = /^(08...|57P0[1-4]|57014|53300|53400|55P03)$/;
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed|terminating connection|the database system is (starting up|shutting down)|SQLITE_BUSY|database is locked/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  if (!e) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || SQLSTATE.test(code)) return true;
  return typeof e.message === 'string' && MESSAGES.test(e.message);
}
