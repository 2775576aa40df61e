/**
 * What the fuzzer puts in request bodies, as fixed lists: values for body fields, documents,
 * whole bodies, content types, broken multipart (corpus-http.ts has the request line and
 * headers). Each list is what a hostile or merely broken client really sends (types a schema
 * did not expect, bytes that are not UTF-8, structures that make recursive code overflow, names
 * that reach Object.prototype). `must` marks the entries every operation gets; the rest are
 * sampled per operation by the seeded PRNG in CI and all sent by the long run. Big values are
 * built when sent, not when listed.
 */
export const KB = 1024;
export const MB = 1024 * KB;

/** A JSON value JSON.stringify can write, or JSON text it cannot (raw bytes, 1e999, 5,000 levels). */
export type Value = { label: string; must?: boolean; json: unknown } | { label: string; must?: boolean; raw: () => Buffer };

const json = (label: string, value: unknown, must = false): Value => ({ label, json: value, must });
const raw = (label: string, make: () => string | Buffer, must = false): Value => ({
  label,
  must,
  raw: () => {
    const made = make();
    return typeof made === "string" ? Buffer.from(made) : made;
  },
});
const bytesInString = (label: string, bytes: number[], must = false): Value =>
  raw(label, () => Buffer.concat([Buffer.from('"a'), Buffer.from(bytes), Buffer.from('b"')]), must);

export const deepArray = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
export const deepObject = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
/** 5,000 levels in 10 KB: far past any recursion limit, far under every body limit. */
export const DEEP_LEVELS = 5_000;
/** Past every maxLength but contentJson's, and under the 1 MB default body limit. */
export const LONG = 120_000;
export const HUGE = 2 * MB;

export const STRUCTURES: Value[] = [
  raw(`[×${DEEP_LEVELS} nested]`, () => deepArray(DEEP_LEVELS), true),
  raw(`{"a":×3000 nested}`, () => deepObject(3_000)),
  raw("array of 100,000 zeros", () => `[${"0,".repeat(99_999)}0]`),
  raw("object of 10,000 keys", () => `{${Array.from({ length: 10_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`),
  raw('{"__proto__":{"polluted":true}}', () => '{"__proto__":{"polluted":true}}'),
  raw('{"constructor":{"prototype":{"polluted":true}}}', () => '{"constructor":{"prototype":{"polluted":true}}}'),
];

export const WRONG_TYPES: Record<"string" | "integer" | "boolean", Value[]> = {
  string: [
    json("0", 0),
    json("-1", -1),
    json("1.5", 1.5),
    json("true", true, true),
    json("null", null),
    json("[]", []),
    json("{}", {}, true),
    json('["fuzz"]', ["fuzz"]),
    json('{"a":"b"}', { a: "b" }),
  ],
  integer: [
    json('"fuzz"', "fuzz", true),
    json("1.5", 1.5),
    json("-1", -1),
    json("true", true),
    json("null", null),
    json("[]", []),
    json("{}", {}),
    json("2147483648", 2147483648),
    json("-2147483649", -2147483649),
    raw("1e999", () => "1e999"),
    raw("-0", () => "-0"),
    raw("9007199254740993", () => "9007199254740993"),
    raw("1e-400", () => "1e-400"),
  ],
  boolean: [json('"true"', "true", true), json("1", 1), json("0", 0), json("null", null), json('"yes"', "yes"), json("[]", [])],
};

/** Digit strings where a number belongs: once coerced past an enum check into a CHECK failure. */
export const NUMERIC_STRINGS: Value[] = [
  json('"3"', "3", true),
  json('"-4"', "-4", true),
  json('"9"', "9", true),
  json('"0"', "0"),
  json('"1"', "1"),
  json('"2"', "2"),
  json('"1e3"', "1e3"),
  json('" 2"', " 2"),
  json('"0x1"', "0x1"),
  json('"2.0"', "2.0"),
  json('""', ""),
];

export const STRINGS: Value[] = [
  json('""', ""),
  json('" "', "   "),
  json("NUL", "\u0000", true),
  json("a NUL b", "a\u0000b"),
  json("control characters", "\u0001\u0002\u0007\b\t\n\u000b\f\r\u001b\u007f\u0085"),
  json("CRLF + header", "x\r\nSet-Cookie: cairn_session=x\r\n\r\n"),
  json("bidi override", "\u202egnp.exe\u202c", true),
  json("bidi isolates", "\u2066\u2067\u2068abc\u2069"),
  json("zero-width and BOM", "\u200b\u200c\u200d\u2060\ufeff"),
  json("lone high surrogate", "\ud800", true),
  json("lone low surrogate", "\udfff"),
  json("surrogates reversed", "a\udc00\ud83db"),
  json("noncharacters", "\uffff\ufffe\u{10ffff}"),
  json("family emoji ×100", "👨‍👩‍👧‍👦".repeat(100)),
  json("1,000 combining accents", `e${"\u0301".repeat(1_000)}`),
  json("case-changing letters", "ßİﬃŉǰ"),
  json("percent junk", "%00%ff%E0%A4%A%"),
  json("path traversal", "../../../../etc/passwd"),
  json("markup", "<script>alert(1)</script><img src=x onerror=alert(1)>"),
  json("SQL", "' OR '1'='1' --; DROP TABLE users; --"),
  json("quote and backslash", '"\\'),
  json("template syntax", "${7*7}{{7*7}}<%= 7*7 %>"),
  json('"__proto__"', "__proto__"),
  json('"constructor"', "constructor"),
  json('"NaN"', "NaN"),
  json("mention of a bogus id", "@[Nobody](00000000-0000-0000-0000-000000000000) @[x](" + "a".repeat(300) + ")"),
  json("search syntax", '"a NEAR( OR * -" ^x title:y AND ('),
  json("JSON text", '{"type":"doc","content":[{"type":"nope"}]}'),
  json("email-ish", "a@b@c..d@"),
  json("URL-ish", "javascript:alert(1)//http://[::1]:99999/%zz"),
  raw(`string ×${LONG / 1000}k`, () => JSON.stringify("x".repeat(LONG))),
];

export const INVALID_UTF8: Value[] = [
  bytesInString("invalid UTF-8 ff fe", [0xff, 0xfe], true),
  bytesInString("overlong NUL c0 80", [0xc0, 0x80]),
  bytesInString("UTF-8 surrogate ed a0 80", [0xed, 0xa0, 0x80]),
  bytesInString("truncated e0 a4", [0xe0, 0xa4]),
  bytesInString("five-byte f8 88 80 80 80", [0xf8, 0x88, 0x80, 0x80, 0x80]),
  bytesInString("lone continuation 80", [0x80]),
  bytesInString("above U+10FFFF f4 90 80 80", [0xf4, 0x90, 0x80, 0x80]),
];

/** Too big for every route but page and template bodies (413 there), and for those a 2 MB value. */
export const HUGE_STRING: Value = raw("string ×2 MB", () => JSON.stringify("x".repeat(HUGE)), true);
export const HUGE_ARRAY: Value = raw("array of 100,000 strings", () => `[${'"x",'.repeat(99_999)}"x"]`, true);

/**
 * Documents for the fields that carry one as JSON text (contentJson, anchorJson): the body's
 * depth check cannot see inside a string, so the document's own checks must hold.
 */
const doc = (...content: unknown[]) => JSON.stringify({ type: "doc", content });
const para = (...content: unknown[]) => ({ type: "paragraph", content });
const txt = (text: string, marks?: unknown[]) => ({ type: "text", text, ...(marks ? { marks } : {}) });
const nestedQuotes = (levels: number) => {
  let node: unknown = para(txt("deep"));
  for (let i = 0; i < levels; i++) node = { type: "blockquote", content: [node] };
  return doc(node);
};
/** A document as the JSON text a string field carries, built when sent. */
const document = (label: string, make: () => string, must = false): Value => raw(label, () => JSON.stringify(make()), must);
export const DOCUMENTS: Value[] = [
  document("document nested 5,000 deep", () => nestedQuotes(5_000), true),
  document("document of nested arrays", () => "[".repeat(DEEP_LEVELS) + "]".repeat(DEEP_LEVELS)),
  document("table of 200 rows of 1000×1000 cells", () =>
    doc({
      type: "table",
      content: Array.from({ length: 200 }, () => ({
        type: "tableRow",
        content: [{ type: "tableCell", attrs: { colspan: 1000, rowspan: 1000, colwidth: [10_000] }, content: [para(txt("x"))] }],
      })),
    }),
  ),
  document("10,000 paragraphs", () => doc(...Array.from({ length: 10_000 }, () => para(txt("p"))))),
  document("text with 1,000 marks", () =>
    doc(
      para(
        txt(
          "m",
          Array.from({ length: 1_000 }, (_, i) => ({ type: i % 2 ? "bold" : "link", attrs: { href: `https://x/${i}` } })),
        ),
      ),
    ),
  ),
  document("unknown nodes and attributes", () =>
    doc(
      { type: "script", attrs: { src: "x" } },
      { type: "paragraph", attrs: { ["__proto__"]: { polluted: true }, constructor: 1 }, content: [{ type: "text" }] },
    ),
  ),
  document("hostile links, images and mentions", () =>
    doc(
      para(txt("a", [{ type: "link", attrs: { href: "javascript:alert(1)" } }]), {
        type: "mention",
        attrs: { id: "../../x", label: "\u202e" },
      }),
      { type: "image", attrs: { src: "data:text/html,<script>alert(1)</script>", width: -1 } },
    ),
  ),
  document("NUL and lone surrogates in text", () => doc(para(txt("a\u0000b\ud800")))),
  document("a document that is null", () => "null"),
  document("a document that is 1e999", () => "1e999"),
  document("a document that is a string", () => '"doc"'),
];

/** Whole JSON bodies, sent with Content-Type: application/json. */
export interface BodyText {
  label: string;
  must?: boolean;
  bytes: () => Buffer;
}
const text = (label: string, body: string | (() => string), must = false): BodyText => ({
  label,
  must,
  bytes: () => Buffer.from(typeof body === "string" ? body : body()),
});
const bytes = (label: string, body: () => Buffer, must = false): BodyText => ({ label, must, bytes: body });

export const WHOLE_BODIES: BodyText[] = [
  text("empty body", "", true),
  text("whitespace", " \r\n\t "),
  text("null", "null", true),
  text("true", "true"),
  text("0", "0"),
  text('"fuzz"', '"fuzz"'),
  text("[]", "[]", true),
  text("[{}]", "[{}]"),
  text("{", "{", true),
  text('{"a":}', '{"a":}'),
  text("[1,]", "[1,]"),
  text("single quotes", "{'a':1}"),
  text("NaN", "NaN"),
  text("trailing garbage", "{}x"),
  text("two documents", "{}{}"),
  text("NUL after the document", "{}\u0000"),
  bytes("BOM then {}", () => Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])),
  bytes("raw ff fe bytes", () => Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), true),
  bytes("100 NUL bytes", () => Buffer.alloc(100)),
  bytes("UTF-16LE {}", () => Buffer.from("{}", "utf16le")),
  text(`top-level [×${DEEP_LEVELS} nested]`, () => deepArray(DEEP_LEVELS), true),
  text('top-level {"a":×3000 nested}', () => deepObject(3_000), true),
  text("top-level array of 100,000 zeros", () => `[${"0,".repeat(99_999)}0]`),
  text("900 KB of spaces", () => `${" ".repeat(900 * KB)}{}`),
];

export interface ContentType {
  label: string;
  must?: boolean;
  /** Header value; null sends none. */
  value: string | null;
  /** Replaces the JSON body (a form, XML, bytes); the base body is sent otherwise. */
  body?: () => Buffer;
}

export const CONTENT_TYPES: ContentType[] = [
  { label: "no content type", value: null, must: true },
  { label: "empty content type", value: "" },
  { label: "text/plain", value: "text/plain", must: true },
  {
    label: "form-urlencoded",
    value: "application/x-www-form-urlencoded",
    body: () => Buffer.from("a=1&__proto__[polluted]=1&constructor[prototype][x]=1"),
  },
  { label: "multipart without boundary", value: "multipart/form-data", must: true },
  { label: "multipart with a JSON body", value: "multipart/form-data; boundary=zz" },
  { label: "JSON in UTF-16", value: "application/json; charset=utf-16", body: () => Buffer.from('{"a":1}', "utf16le") },
  { label: "JSON with a bogus charset", value: 'application/json; charset="x-bogus"' },
  { label: "JSON with empty parameters", value: "application/json;;;" },
  { label: "vendor +json", value: "application/vnd.api+json" },
  { label: "upper-case JSON", value: "APPLICATION/JSON" },
  { label: "application/jsonx", value: "application/jsonx" },
  { label: "two types", value: "application/json, text/plain" },
  {
    label: "XML",
    value: "application/xml",
    body: () => Buffer.from('<?xml version="1.0"?><!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>'),
  },
  { label: "octet-stream bytes", value: "application/octet-stream", body: () => Buffer.from([0, 1, 2, 0xff, 0xfe]) },
  { label: "8 KB content type", value: `application/json; x=${"a".repeat(8 * KB)}` },
];

/** Multipart bodies for the upload route, each with the Content-Type it goes with. */
export interface Multipart {
  label: string;
  must?: boolean;
  /** null sends none. */
  contentType: string | null;
  body: () => Buffer;
}
const B = "fuzzboundary";
const part = (headers: string, content: string | Buffer) =>
  Buffer.concat([Buffer.from(`--${B}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from("\r\n")]);
const end = Buffer.from(`--${B}--\r\n`);
const mp = (
  label: string,
  body: () => Buffer,
  contentType: string | null = `multipart/form-data; boundary=${B}`,
  must = false,
): Multipart => ({ label, contentType, body, must });

export const MULTIPARTS: Multipart[] = [
  mp(
    "a small file",
    () => Buffer.concat([part('Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain', "hello"), end]),
    undefined,
    true,
  ),
  mp(
    "no boundary parameter",
    () => Buffer.concat([part('Content-Disposition: form-data; name="file"; filename="a.txt"', "x"), end]),
    "multipart/form-data",
    true,
  ),
  mp("boundary not in the body", () => Buffer.from("no parts here at all"), "multipart/form-data; boundary=elsewhere", true),
  mp("never terminated", () => part('Content-Disposition: form-data; name="file"; filename="a.txt"', "x")),
  mp("no file field", () => Buffer.concat([part('Content-Disposition: form-data; name="other"', "x"), end])),
  mp("file without a filename", () => Buffer.concat([part('Content-Disposition: form-data; name="file"', "x"), end])),
  mp("traversal filename", () =>
    Buffer.concat([part('Content-Disposition: form-data; name="file"; filename="../../../etc/passwd"', "x"), end]),
  ),
  mp("NUL and bidi in filename", () =>
    Buffer.concat([part('Content-Disposition: form-data; name="file"; filename="a\u0000b\u202etxt.exe"', "x"), end]),
  ),
  mp("invalid UTF-8 filename", () =>
    Buffer.concat([
      part(`Content-Disposition: form-data; name="file"; filename="${Buffer.from([0xff, 0xfe]).toString("latin1")}.txt"`, "x"),
      end,
    ]),
  ),
  mp("RFC 5987 filename junk", () =>
    Buffer.concat([part("Content-Disposition: form-data; name=\"file\"; filename*=UTF-8''%FF%E0%A4%A", "x"), end]),
  ),
  mp("2,000-character filename", () =>
    Buffer.concat([part(`Content-Disposition: form-data; name="file"; filename="${"a".repeat(2_000)}.txt"`, "x"), end]),
  ),
  mp("empty filename and type", () =>
    Buffer.concat([part('Content-Disposition: form-data; name="file"; filename=""\r\nContent-Type: ', ""), end]),
  ),
  mp("SVG with script", () =>
    Buffer.concat([
      part(
        'Content-Disposition: form-data; name="file"; filename="a.svg"\r\nContent-Type: image/svg+xml',
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      ),
      end,
    ]),
  ),
  mp("1,000 parts", () =>
    Buffer.concat([...Array.from({ length: 1_000 }, (_, i) => part(`Content-Disposition: form-data; name="f${i}"`, "x")), end]),
  ),
  mp("two file fields", () =>
    Buffer.concat([
      part('Content-Disposition: form-data; name="file"; filename="a.txt"', "a"),
      part('Content-Disposition: form-data; name="file"; filename="b.txt"', "b"),
      end,
    ]),
  ),
  mp("part headers of 64 KB", () =>
    Buffer.concat([part(`Content-Disposition: form-data; name="file"; filename="a.txt"\r\nX-Junk: ${"a".repeat(64 * KB)}`, "x"), end]),
  ),
  mp("part headers never end", () =>
    Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n${"X: y\r\n".repeat(1_000)}`),
  ),
  mp("JSON instead", () => Buffer.from('{"file":"x"}'), "application/json"),
  mp("no content type", () => Buffer.concat([part('Content-Disposition: form-data; name="file"; filename="a.txt"', "x"), end]), null),
];
