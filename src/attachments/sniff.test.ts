import { describe, expect, test } from "bun:test";
import { cleanFilename, contentDisposition } from "./filenames";
import { ContentSniffer } from "./sniff";

function sniffChunks(bytes: Uint8Array, size: number): string {
  const s = new ContentSniffer();
  for (let i = 0; i < bytes.length; i += size) s.update(bytes.subarray(i, i + size));
  return s.result();
}

describe("ContentSniffer", () => {
  const text = Buffer.from("€ Grüße 日本語 🎉 ".repeat(500));
  test.each([1, 2, 3, 5, 4096])("UTF-8 split across chunks of %d stays text", (size) => {
    expect(sniffChunks(text, size)).toBe("text/plain");
  });

  test("a cut-off sequence at the end, a lone continuation byte or an overlong form is not text", () => {
    expect(sniffChunks(Buffer.concat([text, Buffer.from([0xe2, 0x82])]), 7)).toBe("application/octet-stream");
    expect(sniffChunks(Buffer.from([0x61, 0x80, 0x61]), 1)).toBe("application/octet-stream");
    expect(sniffChunks(Buffer.from([0xc0, 0xaf]), 1)).toBe("application/octet-stream");
  });

  test("markup past the first chunk is still found (the first 4 KB are kept)", () => {
    expect(sniffChunks(Buffer.from(`${" ".repeat(100)}<html>`), 10)).toBe("text/html");
  });

  test("a BOM and blanks before markup do not hide it; an empty file is text", () => {
    expect(sniffChunks(Buffer.from("\uFEFF \n<svg>"), 3)).toBe("image/svg+xml");
    expect(new ContentSniffer().result()).toBe("text/plain");
  });
});

describe("filenames", () => {
  test.each([
    ["a/b/c.txt", "c.txt"],
    ["  spaced.txt  ", "spaced.txt"],
    ["nul\u0000.txt", "nul.txt"],
    ["e\u0301.txt", "\u00e9.txt"],
    ["lone \ud800 surrogate", "lone \ufffd surrogate"],
    [null, "file"],
    ["/", "file"],
    [`${"é".repeat(300)}.pdf`, `${"é".repeat(251)}.pdf`],
    [`${"a".repeat(300)}.${"b".repeat(40)}`, "a".repeat(255)],
  ])("%p → %p", (raw, expected) => {
    expect(cleanFilename(raw)).toBe(expected);
  });

  test("Content-Disposition: ASCII fallback and exact RFC 8187 name", () => {
    expect(contentDisposition("attachment", 'Q"uote 100% ü.txt')).toBe(
      `attachment; filename="Q_uote 100_ _.txt"; filename*=UTF-8''Q%22uote%20100%25%20%C3%BC.txt`,
    );
    expect(contentDisposition("inline", "it's (1)*.txt")).toBe(
      `inline; filename="it's (1)*.txt"; filename*=UTF-8''it%27s%20%281%29%2A.txt`,
    );
  });
});
