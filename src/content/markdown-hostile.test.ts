import { describe, expect, test } from "bun:test";
import { AppError } from "../platform/errors";
import { checkContentMarkdown, contentToMarkdown, MAX_MARKDOWN_BYTES } from "./markdown";
import {
  MAX_INLINE_NESTING,
  MAX_INLINE_RUN,
  MAX_MARKDOWN_BLOCKS,
  MAX_MARKDOWN_NESTING,
  markdownTimeBudget,
  widenMarkdownClock,
} from "./markdown-lexer";
import { rng } from "../../tests/fuzz/random";
import { fastestOfSync } from "../../tests/fastest";
import { MAX_NODES } from "./structure";

/** Stored (the document JSON) or refused (the 400's reason); anything else fails the test. */
function outcome(markdown: string): { json?: string; reason?: string } {
  try {
    return { json: checkContentMarkdown(markdown).json };
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 400 || error.extras.field !== "contentMarkdown") throw error;
    return { reason: error.extras.errors!.contentMarkdown[0] };
  }
}

/** Every link and image address in a stored document. */
function addresses(json: string): string[] {
  const found: string[] = [];
  JSON.parse(json, (key, value) => {
    if ((key === "href" || key === "src") && typeof value === "string") found.push(value);
    return value;
  });
  return found;
}

const DANGEROUS_SCHEME = /^\s*(javascript|vbscript|data|file):/i;

describe("hostile Markdown", () => {
  test("raw HTML, <script> included, is kept as the characters typed: text, never an element", () => {
    const { json } = outcome('<script>alert(1)</script>\n\nHi <img src=x onerror="alert(1)"> <iframe src="https://evil.example"></iframe>');
    const doc = JSON.parse(json!);
    expect(doc.content.map((block: any) => block.type)).toEqual(["paragraph", "paragraph"]);
    expect(doc.content[0].content).toEqual([{ type: "text", text: "<script>alert(1)</script>" }]);
    expect(doc.content[1].content).toEqual([
      { type: "text", text: 'Hi <img src=x onerror="alert(1)"> <iframe src="https://evil.example"></iframe>' },
    ]);
    // Written back out, it is escaped text, which no Markdown reader turns back into a tag.
    expect(contentToMarkdown(json!)).toStartWith("&lt;script&gt;alert(1)&lt;/script&gt;\n");
  });

  test.each([
    ["an inline link", "[x](javascript:alert(1))"],
    ["mixed case", "[x](JaVaScRiPt:alert(1))"],
    ["an autolink", "<javascript:alert(1)>"],
    ["a pointy-bracket destination", "[x](<javascript:alert(1)>)"],
    ["a reference definition", "[x][r]\n\n[r]: javascript:alert(1)"],
    ["a numeric character reference", "[x](java&#x73;cript:alert(1))"],
    ["a reference without its semicolon", "[x](&#106avascript:alert(1))"],
    ["a named character reference", "[x](javascript&colon;alert(1))"],
    ["an image", "![x](javascript:alert(1))"],
    ["a data: image", "![x](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)"],
    ["vbscript:", "[x](vbscript:msgbox(1))"],
    ["a link inside a table cell", "| a |\n| - |\n| [x](javascript:alert(1)) |"],
  ])("a javascript: (or other unsafe) address in %s is refused, naming the scheme", (_, markdown) => {
    expect(outcome(markdown).reason).toMatch(
      /^converts to a document the editor cannot hold: content\[.*\.(href|src): scheme "(javascript|vbscript|data):" is not allowed/,
    );
  });

  test("attributes a node does not have are dropped, not stored", () => {
    const { json } = outcome(
      ':::attachment {attachmentId="a-1" filename="x.pdf" onclick="alert(1)"} ' +
        ':::\n\n:::panel {kind="info" onmouseover="alert(1)"}\n\nHi\n\n:::',
    );
    expect(json).not.toContain("alert");
  });

  test.each([
    [
      "10,000 nested quotes",
      ">".repeat(10_000) + " deep",
      `is nested too deeply (at most ${MAX_MARKDOWN_NESTING} levels of quotes, lists and sections)`,
    ],
    [
      "10,000 nested list items",
      "- ".repeat(10_000) + "deep",
      `is nested too deeply (at most ${MAX_MARKDOWN_NESTING} levels of quotes, lists and sections)`,
    ],
    ["10,000 nested panels", ":::panel\n\n".repeat(10_000) + "deep\n\n" + ":::\n\n".repeat(10_000), "is nested too deeply"],
    [
      "2,700 nested emphases",
      "*a ".repeat(2_700) + "a* ".repeat(2_700),
      `nests emphasis, links or other inline formatting too deeply (at most ${MAX_INLINE_NESTING} levels)`,
    ],
    ["a quote 41 levels deep", ">".repeat(MAX_MARKDOWN_NESTING + 1) + " deep", "is nested too deeply"],
  ])("%s: a 400 at once", (_, markdown, reason) => {
    // The reason with the clock widened (on a loaded machine the time budget could refuse first);
    // "at once" as the fastest of three tries under the normal clock.
    expect(widenMarkdownClock(20, () => outcome(markdown)).reason).toStartWith(reason);
    expect(fastestOfSync(3, () => outcome(markdown), 1000)).toBeLessThan(1000);
  });

  test("nesting the document can hold is converted", () => {
    // Quotes, then the paragraph, then its text: the deepest a stored document may go.
    expect(outcome(">".repeat(MAX_MARKDOWN_NESTING - 2) + " deep").json).toContain("deep");
  });

  test("size is counted in UTF-8 bytes, at most 1 MiB; 5 MB is refused before it is read", () => {
    const fence = (body: string) => "```\n" + body + "\n```";
    expect(outcome(fence("x".repeat(MAX_MARKDOWN_BYTES - 8))).json).toBeString();
    expect(outcome(fence("x".repeat(MAX_MARKDOWN_BYTES - 7))).reason).toBe(
      `is too large (${MAX_MARKDOWN_BYTES + 1} bytes; at most ${MAX_MARKDOWN_BYTES})`,
    );
    // 管 is three bytes: 400,000 characters are 1.2 MB.
    expect(outcome("管".repeat(400_000)).reason).toStartWith("is too large (1200000 bytes");
    const five = "a".repeat(5_000_000);
    expect(outcome(five).reason).toStartWith("is too large (5000000 bytes");
    // Reading 5 MB of Markdown would take longer than 100 ms on every try.
    expect(fastestOfSync(3, () => outcome(five))).toBeLessThan(100);
  });

  test("a paragraph (or heading, item, cell) is at most MAX_INLINE_RUN characters", () => {
    expect(outcome("a".repeat(MAX_INLINE_RUN)).json).toBeString();
    expect(outcome("a".repeat(MAX_INLINE_RUN + 1)).reason).toStartWith(
      `has a paragraph, heading, list item or table cell of ${MAX_INLINE_RUN + 1} characters`,
    );
    // Lines without a blank one between them are one paragraph; a megabyte of them is refused at once.
    const started = performance.now();
    expect(outcome("lorem ipsum\n".repeat(80_000)).reason).toStartWith("has a paragraph");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test("a converted document goes through the same limits as contentJson", () => {
    // 1 MiB of quotes inside a code block: 2 MiB once escaped as JSON.
    expect(outcome("```\n" + '"'.repeat(MAX_MARKDOWN_BYTES - 8) + "\n```").reason).toMatch(
      /^converts to a document the editor cannot hold: the document is too large \(\d+ bytes; at most 2097152\)/,
    );
    // Just over MAX_NODES (a paragraph and its text each): the clock is widened so that on a
    // loaded machine it is the node limit that refuses it, not the time budget.
    expect(widenMarkdownClock(20, () => outcome("a\n\n".repeat(MAX_NODES / 2 + 100))).reason).toMatch(/too many (nodes|blocks)/);
  });

  test("a megabyte of one-word list items is refused for its blocks, not after building them all", () => {
    expect(widenMarkdownClock(20, () => outcome("- a\n".repeat(200_000))).reason).toStartWith(
      `has too many blocks (over ${MAX_MARKDOWN_BLOCKS}`,
    );
  });

  test.each([
    ["unclosed emphasis", () => ("_a".repeat(8_000) + "\n\n").repeat(16)],
    ["unclosed links", () => ("[a](".repeat(4_000) + "\n\n").repeat(16)],
    ["unclosed sections", () => ":::details\n".repeat(25_000)],
    ["unclosed brackets", () => ("[".repeat(16_000) + "\n\n").repeat(16)],
    ["backslash escapes", () => ("\\*".repeat(8_000) + "\n\n").repeat(16)],
    ["tags", () => ("<a>".repeat(5_000) + "\n\n").repeat(16)],
    ["mention openers", () => ("[@ ".repeat(5_000) + "\n\n").repeat(16)],
  ])("slow patterns (%s) end within the time budget: stored or a 400, never more", (_, make) => {
    const markdown = make();
    const bound = markdownTimeBudget(markdown.length) + 1000;
    let result!: ReturnType<typeof outcome>;
    // Up to three tries, stopping at the first within the bound: a conversion that ran past its
    // budget would do so every time; one try can lose the processor on a loaded machine.
    expect(fastestOfSync(3, () => (result = outcome(markdown)), bound)).toBeLessThan(bound);
    if (result.reason) expect(result.reason).toMatch(/too complex|too many|has a paragraph/);
  });
});

/** Mulberry32 (the fuzzer's), so a failing case can be replayed from its seed. */
const random = (seed: number) => rng(seed).next;

const PIECES = [
  "# ",
  "## ",
  "- ",
  "* ",
  "1. ",
  "- [ ] ",
  "- [x] ",
  "> ",
  "```",
  "```js",
  "~~~",
  "---",
  "***",
  "| a | b |",
  "| - | - |",
  "\n",
  "\n\n",
  "  \n",
  "**",
  "*",
  "_",
  "__",
  "~~",
  "`",
  "==",
  "++",
  "[",
  "]",
  "(",
  ")",
  "![",
  "<",
  ">",
  "</",
  "&",
  "&#x6A;",
  "&colon;",
  "\\",
  "|",
  "{",
  "}",
  '"',
  "=",
  ":::panel",
  ':::panel {kind="note"}',
  ":::details",
  ":::detailsSummary",
  ":::",
  " :::",
  ':::attachment {attachmentId="a" filename="f"} :::',
  '[@ id="u" label="A"]',
  "[@ ",
  "javascript:alert(1)",
  "https://example.com/x",
  "data:text/html,x",
  "<script>",
  "</script>",
  "<b>",
  "word",
  "管理",
  " ",
  "\t",
  "    ",
];

describe("fuzz", () => {
  test("random Markdown is stored (with no unsafe address) or refused with a 400, never anything else", () => {
    let stored = 0;
    let refused = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const rnd = random(seed);
      const markdown = Array.from({ length: 1 + Math.floor(rnd() * 60) }, () => PIECES[Math.floor(rnd() * PIECES.length)]).join("");
      let result: ReturnType<typeof outcome>;
      try {
        result = outcome(markdown);
      } catch (error) {
        throw new Error(`seed ${seed}: ${String(error)}\n${JSON.stringify(markdown)}`);
      }
      if (result.reason) {
        refused++;
        continue;
      }
      stored++;
      expect(addresses(result.json!).filter((url) => DANGEROUS_SCHEME.test(url))).toEqual([]);
      // What was stored can be written out, and read back (stored again or refused, never thrown).
      const again = outcome(contentToMarkdown(result.json!));
      if (again.json) expect(addresses(again.json).filter((url) => DANGEROUS_SCHEME.test(url))).toEqual([]);
    }
    expect(stored).toBeGreaterThan(500);
    // Refused: mostly javascript: and data: addresses (a "[@ " that opens no mention with an id is text now, not a refusal).
    expect(refused).toBeGreaterThan(5);
  });
});
