import { isLostInTransaction } from './marked-statements.js';

/**
 * Whether an error means the database could not be reached or dropped the connection (as opposed
 * to a query it refused). Such a request is answered 503 and may be tried again: the pool opens a
 * new connection on the next request, so service resumes by itself when the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A named prepared statement lost on the way (a pooler in transaction mode) or whose result a
  // migration changed, inside a transaction that then ended: marked-statements.ts says which.
  if (isLostInTransaction(error)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // SQLSTATE class 08: connection exception; 57P01–57P03: shutdown, crash, not accepting yet;
    // 57P05 and 25P03: the server ended a connection left idle (idle_session_timeout,
    // idle_in_transaction_session_timeout); 53300: too many connections; 25006: a write reached a
    // standby (a failover in progress: the proxy sends new connections to it before its promotion).
    const codes = ['25P03', '53300', '25006'];
    if (code.startsWith('08') || /^57P0[1-35]$/.test(code) || codes.includes(code)) return true;
    // The socket itself (node's system error codes).
    if (SOCKET_CODES.has(code)) return true;
    // SQLite: the file cannot be opened, read or written.
    if (/^SQLITE_(CANTOPEN|IOERR|FULL|NOTADB|CORRUPT)/.test(code)) return true;
  }
  return PG_CLIENT_MESSAGES.some((m) => error.message.includes(m));
}

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** What pg (the client and its pool) says, without a code, when a connection breaks. */
const PG_CLIENT_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];
