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
  // The server writes a line per request: the time is formatted once per millisecond, and the
  // fields are serialised as they are after a fixed head instead of spread into a new object.
  let ms = -1;
  let time = "";
  const emit = (level: string) => (msg: string, fields: Record<string, unknown> = {}) => {
    const now = Date.now();
    if (now !== ms) time = new Date((ms = now)).toISOString();
    // A field named like the head's (time, level, msg) replaces it, as the spread did.
    if ("time" in fields || "level" in fields || "msg" in fields) return write(JSON.stringify({ time, level, msg, ...fields }));
    const rest = JSON.stringify(fields);
    write(`{"time":"${time}","level":"${level}","msg":${JSON.stringify(msg)}${rest === "{}" ? "}" : `,${rest.slice(1)}`}`);
  };
  return { info: emit("info"), warn: emit("warn"), error: emit("error") };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
