/**
 * Structured logging: one JSON object per line on stdout. Callers pass only safe fields;
 * passwords, tokens, cookies and codes are never logged (see http/request-log.ts).
 */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Lines are gathered and written once per turn of the event loop: under load one write carries
 * many request lines, instead of one system call each.
 */
export function stdoutWriter(): (line: string) => void {
  let pending = "";
  const flush = () => {
    const out = pending;
    pending = "";
    process.stdout.write(out);
  };
  process.on("exit", () => pending && process.stdout.write(pending));
  return (line) => {
    if (!pending) setImmediate(flush);
    pending += line + "\n";
  };
}

export function createLogger(write: (line: string) => void = stdoutWriter()): Logger {
  const emit = (level: string) => (msg: string, fields: Record<string, unknown> = {}) =>
    write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
  return { info: emit("info"), warn: emit("warn"), error: emit("error") };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
