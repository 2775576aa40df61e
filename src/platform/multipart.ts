/**
 * A streaming reader of multipart/form-data bodies (RFC 7578) that finds ONE file part and hands
 * its bytes on as they arrive, so an upload is never held in memory whole (request.formData()
 * would buffer it). The small text fields of the form are read wherever they are: those before
 * the file at once, those after it once the file has been read (FilePart.fields()), so a form
 * sent in any order means the same (curl -F file=@x -F key=K sends the key last). A part the
 * route does not take (a name outside `accepts`, a second file) is a 400 naming it, never
 * skipped: a field that silently does nothing looks like a bug in the server.
 *
 * Limits: the file part may hold at most `maxFileBytes` (checked before a byte past it is handed
 * on), the whole body at most `maxFileBytes + OVERHEAD_BYTES`, a part's header block at most
 * 16 KB, a text field MAX_FIELD_BYTES. Breaking one throws MultipartError("too_large") (a field
 * too long, a 400 naming it); a body that is not well-formed throws MultipartError("malformed").
 */
import { invalid } from "./errors";

/** Room for the multipart framing and small fields next to the file. */
export const OVERHEAD_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

export class MultipartError extends Error {
  constructor(
    readonly kind: "too_large" | "malformed",
    message: string,
  ) {
    super(message);
  }
}

export interface FilePart {
  /** From Content-Disposition (`filename*` preferred over `filename`); null when absent. */
  filename: string | null;
  /** What the client claimed in the part's Content-Type (not to be trusted). */
  claimedType: string | null;
  /** The part's bytes, in order. Read it to the end: only then is the part known complete. */
  body: AsyncIterable<Uint8Array>;
  /** The text fields sent before the file (to check them before it is read). */
  before: ReadonlyMap<string, string>;
  /**
   * Once `body` has been read to its end: reads the rest of the form and answers its text
   * fields, those sent before the file and after it. Call it before anything is committed: a
   * part the route does not take is refused here too.
   */
  fields(): Promise<Map<string, string>>;
}

export interface FormOptions {
  /**
   * The stream hands over fresh buffers that nobody else holds (a request body), and each piece
   * of the file is used before the next is asked for (written, hashed). Each chunk's memory is
   * then freed as soon as the parser is past it (two chunks later) instead of waiting for the
   * collector, which lets megabytes of them pile up during an upload.
   */
  freeChunks?: boolean;
  /** The names of the text fields the form may carry beside the file (none by default). */
  accepts?: readonly string[];
}

/** The boundary of a multipart/form-data Content-Type, or null when it is not one. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const boundary = headerParams(contentType).get("boundary");
  // RFC 2046: 1 to 70 characters.
  return boundary && boundary.length <= 70 ? boundary : null;
}

/**
 * Reads `stream` up to the part named `field` and answers it (null when the body ends without
 * one). Text fields before it are kept for FilePart.fields(); parts the form does not take are
 * refused as they are met.
 */
export async function readFilePart(
  stream: ReadableStream<Uint8Array>,
  boundary: string,
  field: string,
  maxFileBytes: number,
  opts: FormOptions = {},
): Promise<FilePart | null> {
  const input = new ByteInput(stream.getReader(), maxFileBytes + OVERHEAD_BYTES, opts.freeChunks ?? false);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const accepts = new Set(opts.accepts ?? []);
  const fields = new Map<string, string>();
  const takes = () => [...accepts, field].map((n) => `"${n}"`).join(", ");
  /** The next part's headers after a delimiter, or null at the closing one ("--"). */
  const nextPart = async (): Promise<{
    name: string | undefined;
    file: boolean;
    filename: string | null;
    headers: Map<string, string>;
  } | null> => {
    await input.need(2);
    if (input.buf[0] === 0x2d && input.buf[1] === 0x2d) return null;
    const headers = parseHeaders(await input.readHeaderBlock());
    const disposition = headers.get("content-disposition") ?? "";
    const params = headerParams(disposition);
    if (!/^form-data\s*(;|$)/i.test(disposition))
      throw new MultipartError("malformed", "a part is not form-data (its Content-Disposition must be form-data with a name)");
    return {
      name: params.get("name"),
      file: params.has("filename") || params.has("filename*"),
      filename: params.get("filename*") ?? params.get("filename") ?? null,
      headers,
    };
  };
  /** A text field the form takes, kept; anything else refused, naming it. */
  const readField = async (name: string | undefined, isFile: boolean, fileSeen: boolean): Promise<void> => {
    if (name === undefined) throw new MultipartError("malformed", "a part has no name");
    if (name === field && fileSeen) throw invalid(field, "is sent twice: send one file");
    // A file under another name is the file sent under the wrong name: said on the file's field.
    if (isFile) throw invalid(field, `is required: a file was sent as "${name}"; send it as "${field}"`);
    if (!accepts.has(name)) throw invalid(name, `is not a field of this upload (it takes ${takes()})`);
    const value = await input.readSmallUntil(delimiter, MAX_FIELD_BYTES);
    if (value === null) throw invalid(name, `is too long (at most ${MAX_FIELD_BYTES} bytes)`);
    fields.set(name, value.toString("utf8"));
  };
  try {
    // The first delimiter has no CRLF before it when there is no preamble: supply one.
    input.buf = Buffer.from(CRLF);
    await input.skipPast(delimiter);
    for (;;) {
      const part = await nextPart();
      if (!part) return null;
      if (part.name === field) {
        const done = { body: false };
        return {
          filename: part.filename,
          claimedType: part.headers.get("content-type") ?? null,
          before: new Map(fields),
          body: input.streamUntil(delimiter, maxFileBytes, () => (done.body = true)),
          async fields() {
            if (!done.body) throw new Error("FilePart.fields() before the file was read to its end");
            try {
              for (let next = await nextPart(); next; next = await nextPart()) await readField(next.name, next.file, true);
              return fields;
            } finally {
              input.cancel();
            }
          },
        };
      }
      await readField(part.name, part.file, false);
    }
  } catch (err) {
    input.cancel();
    throw err;
  }
}

/** A text field handed back (`fields`) is at most this long; a longer one is skipped. */
export const MAX_FIELD_BYTES = 4 * 1024;

/** Chunks still referenced: this.buf (or a piece handed on) reaches back at most one chunk. */
const CHUNKS_IN_USE = 2;

class ByteInput {
  buf: Buffer = Buffer.alloc(0);
  private total = 0;
  private readonly held: ArrayBuffer[] = [];

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly maxTotal: number,
    private readonly freeChunks: boolean,
  ) {}

  /** Frees the chunk read CHUNKS_IN_USE reads ago (transfer(0) detaches it and releases its memory at once). */
  private hold(chunk: Uint8Array): void {
    if (!this.freeChunks || chunk.byteOffset !== 0 || chunk.byteLength !== chunk.buffer.byteLength) return;
    this.held.push(chunk.buffer as ArrayBuffer);
    if (this.held.length > CHUNKS_IN_USE) (this.held.shift() as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
  }

  /** The next chunk of the body as it came (null at its end), counted against the limit. */
  async read(): Promise<Buffer | null> {
    let next: Awaited<ReturnType<typeof this.reader.read>>;
    try {
      next = await this.reader.read();
    } catch {
      // The client went away or the connection broke: an incomplete body, not our failure.
      throw new MultipartError("malformed", "the upload broke off");
    }
    const { done, value } = next;
    if (done) return null;
    this.total += value.byteLength;
    if (this.total > this.maxTotal) throw new MultipartError("too_large", "the body is too large");
    this.hold(value);
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }

  /** Appends one more chunk to what is buffered; false at the end of the body. */
  async fill(): Promise<boolean> {
    const next = await this.read();
    if (!next) return false;
    this.buf = this.buf.length ? Buffer.concat([this.buf, next]) : next;
    return true;
  }

  async need(n: number): Promise<void> {
    while (this.buf.length < n) if (!(await this.fill())) throw new MultipartError("malformed", "the body ended in the middle of the form");
  }

  /** Drops everything up to and including `delimiter`. */
  async skipPast(delimiter: Buffer): Promise<void> {
    for (;;) {
      const at = this.buf.indexOf(delimiter);
      if (at >= 0) {
        this.buf = this.buf.subarray(at + delimiter.length);
        return;
      }
      this.buf = this.buf.subarray(Math.max(0, this.buf.length - delimiter.length + 1));
      if (!(await this.fill())) throw new MultipartError("malformed", "the body ended before its closing boundary");
    }
  }

  /** The bytes up to `delimiter` (a copy), or null, skipping them, when there are more than `max`. */
  async readSmallUntil(delimiter: Buffer, max: number): Promise<Buffer | null> {
    for (;;) {
      const at = this.buf.indexOf(delimiter);
      if (at >= 0) {
        const value = at <= max ? Buffer.from(this.buf.subarray(0, at)) : null;
        this.buf = this.buf.subarray(at + delimiter.length);
        return value;
      }
      if (this.buf.length > max + delimiter.length) {
        await this.skipPast(delimiter);
        return null;
      }
      if (!(await this.fill())) throw new MultipartError("malformed", "the body ended before its closing boundary");
    }
  }

  /** The rest of the delimiter line (blanks, CRLF), then the header block up to CRLF CRLF. */
  async readHeaderBlock(): Promise<string> {
    for (;;) {
      const lineEnd = this.buf.indexOf(CRLF);
      if (lineEnd >= 0) {
        if (this.buf.subarray(0, lineEnd).some((b) => b !== 0x20 && b !== 0x09))
          throw new MultipartError("malformed", "a boundary line has text after it");
        // Keep the CRLF: an empty header block is then CRLF CRLF at once.
        this.buf = this.buf.subarray(lineEnd);
        break;
      }
      if (this.buf.length > 1024) throw new MultipartError("malformed", "a boundary line is too long");
      if (!(await this.fill())) throw new MultipartError("malformed", "the body ended in the middle of the form");
    }
    for (;;) {
      const end = this.buf.indexOf(HEADER_END);
      if (end >= 0) {
        const block = this.buf.subarray(2, Math.max(2, end)).toString("utf8");
        this.buf = this.buf.subarray(end + HEADER_END.length);
        return block;
      }
      if (this.buf.length > MAX_HEADER_BYTES) throw new MultipartError("malformed", "a part's headers are too long");
      if (!(await this.fill())) throw new MultipartError("malformed", "the body ended in a part's headers");
    }
  }

  /**
   * The bytes up to `delimiter`, as they arrive, handed on without copying (an upload must not
   * cost its size in garbage). All but the last delimiter-length bytes of what is buffered can
   * go at once: the delimiter cannot start before them. That short tail is then checked
   * against the start of the next chunk (the only place a delimiter can straddle).
   */
  async *streamUntil(delimiter: Buffer, max: number, ended: () => void): AsyncIterable<Uint8Array> {
    const keep = delimiter.length - 1;
    let count = 0;
    let finished = false;
    const hand = (bytes: Buffer) => {
      count += bytes.length;
      if (count > max) throw new MultipartError("too_large", "the file is too large");
      return bytes;
    };
    try {
      for (;;) {
        const at = this.buf.indexOf(delimiter);
        if (at >= 0) {
          const last = this.buf.subarray(0, at);
          this.buf = this.buf.subarray(at + delimiter.length);
          if (last.length) yield hand(last);
          finished = true;
          ended();
          return;
        }
        if (this.buf.length > keep) {
          const ready = this.buf.subarray(0, this.buf.length - keep);
          this.buf = this.buf.subarray(this.buf.length - keep);
          yield hand(ready);
        }
        const next = await this.read();
        if (!next) throw new MultipartError("malformed", "the body ended before the file's closing boundary");
        const tail = this.buf;
        if (tail.length === 0 || next.length < keep) {
          this.buf = tail.length ? Buffer.concat([tail, next]) : next;
          continue;
        }
        const seam = Buffer.concat([tail, next.subarray(0, keep)]).indexOf(delimiter);
        if (seam >= 0) {
          // The delimiter starts in the tail: the file ends there.
          if (seam > 0) yield hand(tail.subarray(0, seam));
          this.buf = next.subarray(seam + delimiter.length - tail.length);
          finished = true;
          ended();
          return;
        }
        yield hand(tail);
        this.buf = next;
      }
    } finally {
      // A reader that gave up (or a broken body): whatever follows is never needed.
      if (!finished) this.cancel();
    }
  }

  cancel(): void {
    this.reader.cancel().catch(() => {});
  }
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split("\r\n")) {
    if (!line) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new MultipartError("malformed", "a part has a header line without a name");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * The parameters of a header value such as `form-data; name="file"; filename="a.txt"` (names in
 * lower case). Quoted strings may escape with a backslash; `name*=UTF-8''…` (RFC 8187) is
 * decoded; one that does not decode is left out.
 */
export function headerParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  let i = value.indexOf(";");
  if (i < 0) return params;
  i++;
  while (i < value.length) {
    while (value[i] === " " || value[i] === "\t" || value[i] === ";") i++;
    const eq = value.indexOf("=", i);
    if (eq < 0) break;
    const name = value.slice(i, eq).trim().toLowerCase();
    i = eq + 1;
    while (value[i] === " " || value[i] === "\t") i++;
    let raw = "";
    if (value[i] === '"') {
      i++;
      while (i < value.length && value[i] !== '"') {
        if (value[i] === "\\" && i + 1 < value.length) i++;
        raw += value[i++];
      }
      i++;
    } else {
      const end = value.indexOf(";", i);
      raw = value.slice(i, end < 0 ? value.length : end).trim();
      i = end < 0 ? value.length : end;
    }
    if (name.endsWith("*")) {
      const m = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(raw);
      if (!m || !/^utf-8$/i.test(m[1])) continue;
      try {
        params.set(name, decodeURIComponent(m[2]));
      } catch {
        // Not valid percent-encoded UTF-8: the plain parameter, if any, is used instead.
      }
    } else params.set(name, raw);
  }
  return params;
}
