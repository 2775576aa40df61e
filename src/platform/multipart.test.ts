import { describe, expect, test } from "bun:test";
import { AppError } from "./errors";
import { headerParams, MultipartError, multipartBoundary, readFilePart } from "./multipart";

const B = "XyZ-boundary";

/**
 * `body` delivered in chunks of the given sizes (cycled), like a network would: views of one
 * buffer, or (`sent`) each a fresh copy, as a request body arrives, listed in `sent`.
 */
function chunked(body: Uint8Array, sizes: number[], sent?: Uint8Array[]): ReadableStream<Uint8Array> {
  let at = 0;
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= body.length) return controller.close();
      const n = sizes[i++ % sizes.length];
      const chunk = sent ? new Uint8Array(body.subarray(at, at + n)) : body.subarray(at, at + n);
      sent?.push(chunk);
      controller.enqueue(chunk);
      at += n;
    },
  });
}

function formBody(file: Uint8Array, opts: { before?: string; after?: string; filename?: string } = {}): Uint8Array {
  return Buffer.concat([
    Buffer.from(
      `${opts.before ?? ""}--${B}\r\nContent-Disposition: form-data; name="file"; ` +
        `filename="${opts.filename ?? "f.bin"}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${B}--\r\n${opts.after ?? ""}`),
  ]);
}

async function readAll(stream: ReadableStream<Uint8Array>, max = 1 << 20, freeChunks = false) {
  const part = await readFilePart(stream, B, "file", max, { freeChunks });
  if (!part) return null;
  const chunks: Uint8Array[] = [];
  for await (const c of part.body) chunks.push(Uint8Array.from(c));
  const fields = await part.fields();
  return { ...part, bytes: Buffer.concat(chunks), fields };
}

const tricky = [
  ["empty", Buffer.alloc(0)],
  ["plain", Buffer.from("hello world")],
  ["almost a delimiter", Buffer.from(`a\r\n--${B.slice(0, -1)}b\r\n-\r\n--XyZ\r`)],
  ["ends with CR", Buffer.from("line\r")],
  ["binary", Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256))],
  ["delimiter text without CRLF", Buffer.from(`--${B}--${B}`)],
] as const;

describe("readFilePart", () => {
  for (const [name, file] of tricky) {
    test.each([[[1]], [[2, 3]], [[7]], [[B.length + 3]], [[64, 1, 5]], [[1 << 16]]])(
      `${name}: the same bytes in chunks of %p`,
      async (sizes) => {
        const got = await readAll(chunked(formBody(file, { before: "preamble\r\n", after: "epilogue" }), sizes));
        expect(got?.filename).toBe("f.bin");
        expect(got?.claimedType).toBe("image/png");
        expect(Buffer.compare(got!.bytes, file)).toBe(0);
      },
    );
  }

  describe("freeChunks: each chunk's memory is freed once the parser is past it", () => {
    for (const [name, file] of tricky) {
      test.each([[[1]], [[2, 3]], [[B.length + 3]], [[64, 1, 5]]])(`${name}: the same bytes in fresh chunks of %p`, async (sizes) => {
        const got = await readAll(chunked(formBody(file, { before: "preamble\r\n" }), sizes, []), 1 << 20, true);
        expect(Buffer.compare(got!.bytes, file)).toBe(0);
      });
    }

    test("chunks two reads back are detached; the last ones and views of shared buffers are not", async () => {
      const file = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));
      const sent: Uint8Array[] = [];
      const got = await readAll(chunked(formBody(file), [1000], sent), 1 << 20, true);
      expect(Buffer.compare(got!.bytes, file)).toBe(0);
      const freed = sent.map((c) => c.byteLength === 0);
      expect(sent.length).toBeGreaterThan(10);
      expect(freed.slice(0, -3).every(Boolean)).toBe(true);
      expect(freed.slice(-2)).toEqual([false, false]);
      const views: Uint8Array[] = [];
      const body = chunked(formBody(file), [1000]);
      const reader = body.getReader();
      const seen = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          views.push(value);
          controller.enqueue(value);
        },
      });
      expect(Buffer.compare((await readAll(seen, 1 << 20, true))!.bytes, file)).toBe(0);
      expect(views.every((v) => v.byteLength > 0)).toBe(true);
    });
  });

  test("a field the form does not take is a 400 naming it, met before the file is read", async () => {
    const other = `--${B}\r\nContent-Disposition: form-data; name="title"\r\n\r\nhi\r\n`;
    const body = Buffer.concat([Buffer.from(other), formBody(Buffer.from("data"))]);
    const err = await readAll(chunked(body, [3])).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.extras.field).toBe("title");
    expect(err.message).toContain('is not a field of this upload (it takes "file")');
    // A form without the file answers null (the route says the file is required).
    const none = await readFilePart(chunked(Buffer.from(`${other}--${B}--\r\n`), [5]), B, "file", 1 << 20, { accepts: ["title"] });
    expect(none).toBeNull();
  });

  test("a part with no name is malformed", async () => {
    const body = Buffer.concat([Buffer.from(`--${B}\r\n\r\nanonymous\r\n`), formBody(Buffer.from("data"))]);
    const err = await readAll(chunked(body, [4])).catch((e) => e);
    expect(err).toBeInstanceOf(MultipartError);
    expect(err.kind).toBe("malformed");
  });

  test.each([
    ["the file over the limit", formBody(Buffer.alloc(101)), "too_large"],

    ["no boundary at all", Buffer.from("just text"), "malformed"],
    ["cut off in the headers", Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"`), "malformed"],
    ["cut off in the file", Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc`), "malformed"],
    ["headers past 16 KB", Buffer.from(`--${B}\r\nX-Big: ${"y".repeat(17 * 1024)}\r\n\r\n`), "malformed"],
    ["text after a boundary", Buffer.from(`--${B}junk\r\n\r\n`), "malformed"],
  ] as const)("%s is a MultipartError", async (_name, body, kind) => {
    const err = await readAll(chunked(body, [1000]), 100).catch((e) => e);
    expect(err).toBeInstanceOf(MultipartError);
    expect(err.kind).toBe(kind);
  });

  test("a field over the body's limit is too large", async () => {
    const body = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="x"\r\n\r\n${"x".repeat(70 * 1024)}\r\n--${B}--`);
    const err = await readFilePart(chunked(body, [1000]), B, "file", 100, { accepts: ["x"] }).catch((e) => e);
    expect(err).toBeInstanceOf(MultipartError);
    expect(err.kind).toBe("too_large");
  });

  test("exactly the limit is allowed", async () => {
    expect((await readAll(chunked(formBody(Buffer.alloc(100, 1)), [9]), 100))?.bytes.length).toBe(100);
  });

  test("stops reading the stream once the file has ended", async () => {
    let pulls = 0;
    const body = Buffer.concat([formBody(Buffer.from("small")), Buffer.alloc(1 << 20)]);
    const inner = chunked(body, [1024]);
    const reader = inner.getReader();
    const counted = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulls++;
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    });
    expect((await readAll(counted))?.bytes.toString()).toBe("small");
    expect(pulls).toBeLessThan(5);
  });
});

describe("header parameters", () => {
  test.each([
    ["multipart/form-data; boundary=abc", "boundary", "abc"],
    ['multipart/form-data; boundary="a b;c"', "boundary", "a b;c"],
    ['form-data; name="file"; filename="a\\"b.txt"', "filename", 'a"b.txt'],
    ["form-data; filename*=UTF-8''%E2%82%AC%20rates.txt", "filename*", "€ rates.txt"],
    ["form-data; filename*=utf-8'en'x.txt", "filename*", "x.txt"],
    ["form-data; filename*=ISO-8859-1''%A3.txt", "filename*", undefined],
    ["form-data; filename*=UTF-8''%E2%82", "filename*", undefined],
    ["form-data; NAME=File", "name", "File"],
  ])("%s → %s", (value, name, expected) => {
    expect(headerParams(value).get(name)).toBe(expected);
  });

  test.each([
    ["multipart/form-data; boundary=abc", "abc"],
    ["Multipart/Form-Data;boundary=abc", "abc"],
    ["multipart/form-data", null],
    ["multipart/mixed; boundary=abc", null],
    ["text/plain; boundary=abc", null],
    [`multipart/form-data; boundary=${"x".repeat(71)}`, null],
    [null, null],
  ])("boundary of %p", (contentType, expected) => {
    expect(multipartBoundary(contentType)).toBe(expected);
  });
});

describe("readFilePart: the form's text fields, before and after the file", () => {
  const field = (name: string, value: string) => `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const fileThen = (after: string) =>
    Buffer.concat([
      Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="x.zip"\r\n\r\n`),
      Buffer.from("zip bytes"),
      Buffer.from(`\r\n${after}--${B}--\r\n`),
    ]);
  const read = async (body: Uint8Array, sizes: number[]) => {
    const part = await readFilePart(chunked(body, sizes), B, "file", 1 << 20, { accepts: ["key", "name"] });
    const chunks: Uint8Array[] = [];
    for await (const c of part!.body) chunks.push(Uint8Array.from(c));
    return { before: [...part!.before], bytes: Buffer.concat(chunks).toString(), fields: [...(await part!.fields())] };
  };

  test.each([[[1]], [[3, 5]], [[1 << 16]]])("before the file: known before it is read, in chunks of %p", async (sizes) => {
    const body = formBody(Buffer.from("zip bytes"), { before: field("key", "DOCS") + field("name", "Équipe docs") });
    const got = await read(body, sizes);
    expect(got.before).toEqual([
      ["key", "DOCS"],
      ["name", "Équipe docs"],
    ]);
    expect(got.bytes).toBe("zip bytes");
    expect(got.fields).toEqual([
      ["key", "DOCS"],
      ["name", "Équipe docs"],
    ]);
  });

  test.each([[[1]], [[3, 5]], [[1 << 16]]])(
    "after the file (curl's order): read once the file has been, in chunks of %p",
    async (sizes) => {
      const body = Buffer.concat([
        Buffer.from(field("name", "Docs")),
        Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="x.zip"\r\n\r\nzip bytes\r\n`),
        Buffer.from(field("key", "DOCS")),
        Buffer.from(`--${B}--\r\n`),
      ]);
      const after = await read(body, sizes);
      expect(after.before).toEqual([["name", "Docs"]]);
      expect(after.bytes).toBe("zip bytes");
      expect(after.fields).toEqual([
        ["name", "Docs"],
        ["key", "DOCS"],
      ]);
    },
  );

  test.each([
    ["an unknown field after the file", (f: typeof field) => f("colour", "red"), "colour", "is not a field of this upload"],
    [
      "a second file",
      () => `--${B}\r\nContent-Disposition: form-data; name="file"; filename="y.zip"\r\n\r\nmore\r\n`,
      "file",
      "is sent twice",
    ],
    [
      "another file under another name",
      () => `--${B}\r\nContent-Disposition: form-data; name="extra"; filename="y.zip"\r\n\r\nmore\r\n`,
      "file",
      'a file was sent as "extra"',
    ],
    ["a known field too long", (f: typeof field) => f("name", "x".repeat(5000)), "name", "is too long"],
  ] as const)("%s is a 400 naming it, never skipped", async (_, make, name, reason) => {
    const err = await read(fileThen(make(field)), [7]).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.extras.field).toBe(name);
    expect(err.message).toContain(reason);
  });
});

describe("header parameters", () => {
  test.each([
    ["multipart/form-data; boundary=abc", "boundary", "abc"],
    ['multipart/form-data; boundary="a b;c"', "boundary", "a b;c"],
    ['form-data; name="file"; filename="a\\"b.txt"', "filename", 'a"b.txt'],
    ["form-data; filename*=UTF-8''%E2%82%AC%20rates.txt", "filename*", "€ rates.txt"],
    ["form-data; filename*=utf-8'en'x.txt", "filename*", "x.txt"],
    ["form-data; filename*=ISO-8859-1''%A3.txt", "filename*", undefined],
    ["form-data; filename*=UTF-8''%E2%82", "filename*", undefined],
    ["form-data; NAME=File", "name", "File"],
  ])("%s → %s", (value, name, expected) => {
    expect(headerParams(value).get(name)).toBe(expected);
  });

  test.each([
    ["multipart/form-data; boundary=abc", "abc"],
    ["Multipart/Form-Data;boundary=abc", "abc"],
    ["multipart/form-data", null],
    ["multipart/mixed; boundary=abc", null],
    ["text/plain; boundary=abc", null],
    [`multipart/form-data; boundary=${"x".repeat(71)}`, null],
    [null, null],
  ])("boundary of %p", (contentType, expected) => {
    expect(multipartBoundary(contentType)).toBe(expected);
  });
});
