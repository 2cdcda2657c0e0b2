/**
 * What the delivery worker logs through: pino's calling convention (fastify's `app.log`, or the
 * `tessera worker` logger). Entries carry ids, status codes, durations and error text: never a URL,
 * a header, a body, a secret or a signature.
 */
export interface WorkerLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLog: WorkerLog = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
