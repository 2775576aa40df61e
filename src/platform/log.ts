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
 * Lines are gathered and written together, at most LOG_FLUSH_MS after the first of them (or
 * once LOG_FLUSH_BYTES have gathered), and whatever is left when the process exits: the server
 * writes a line per request, and a write per turn of the event loop was still a system call
 * every few requests under load. A process killed outright loses at most that last moment.
 */
export const LOG_FLUSH_MS = 50;
const LOG_FLUSH_BYTES = 64 * 1024;

/**
 * Written through Bun's own sink for standard output, not `process.stdout`: the first touch of
 * that builds Node's stream machinery (~20 ms of CPU, in a cold start's path to its first answer,
 * where the first lines are flushed). The sink is the same native writer underneath, ordered,
 * and buffers when a pipe is full.
 */
export function stdoutWriter(): (line: string) => void {
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | null = null;
  let sink: ReturnType<typeof Bun.stdout.writer> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const out = pending;
    pending = "";
    if (!out) return;
    sink ??= Bun.stdout.writer();
    sink.write(out);
    sink.flush();
  };
  process.on("exit", flush);
  return (line) => {
    pending += line + "\n";
    if (pending.length >= LOG_FLUSH_BYTES) flush();
    else if (!timer) {
      timer = setTimeout(flush, LOG_FLUSH_MS);
      timer.unref?.();
    }
  };
}

export function createLogger(write: (line: string) => void = stdoutWriter()): Logger {
  // The server writes a line per request: the time is formatted once per millisecond, and the
  // fields are serialised as they are after a fixed head instead of spread into a new object.
  let ms = -1;
  let time = "";
  const emit =
    (level: string) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
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
