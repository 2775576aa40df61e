import { describe, expect, test } from "bun:test";
import { rng } from "../../tests/fuzz/random";
import { AppError } from "../platform/errors";
import { lenientMarkdownReader } from "./markdown-lenient";
import { widenMarkdownClock } from "./markdown-lexer";
import { checkContentJson } from "./validate";

/** HTML read the simplest way: its text as a paragraph (the importer's reader is tested with it). */
const read = lenientMarkdownReader({
  blocks: (html) => [{ type: "paragraph", content: [{ type: "text", text: html.replace(/<[^>]*>/g, "").trim() || "html" }] }],
  image: () => null,
});

const PIECES = [
  "# ",
  "- ",
  "1. ",
  "> ",
  "```",
  "\n",
  "\n\n",
  "**",
  "*",
  "_",
  "`",
  "[",
  "]",
  "(",
  ")",
  "![",
  "<",
  ">",
  "&",
  "\\",
  "|",
  "| a | b |\n| - | - |\n",
  "<b>",
  "</b>",
  '<a href="x.md">',
  '<a href="javascript:alert(1)">',
  "</a>",
  '<img src="i.png">',
  '<img src="javascript:x">',
  "<br>",
  "<sup>",
  "</sup>",
  "<details>\n<summary>S</summary>\n\n",
  "\n\n</details>\n",
  '<p align="center">',
  "</p>",
  "<!-- c -->",
  "<string>",
  "[@ ",
  "[@y/x](https://e.com)",
  '[@ id="u" label="A"]',
  ":::panel",
  ":::",
  "[x](javascript:alert(1))",
  "word",
  "管理",
  " ",
];

describe("reading Markdown from elsewhere", () => {
  test("random Markdown with HTML always comes in as a document the editor holds, " +
    "with no unsafe address, or a 400 for the whole document", () => {
    let kept = 0;
    for (let seed = 1; seed <= 250; seed++) {
      const rnd = rng(seed).next;
      const markdown = Array.from({ length: 1 + Math.floor(rnd() * 60) }, () => PIECES[Math.floor(rnd() * PIECES.length)]).join("");
      let result: ReturnType<typeof read>;
      try {
        result = read(markdown);
      } catch (error) {
        if (error instanceof AppError && error.status === 400) continue;
        throw new Error(`seed ${seed}: ${String(error)}\n${JSON.stringify(markdown)}`);
      }
      kept += result.keptAsText.length;
      const { json } = checkContentJson(JSON.stringify(result.doc));
      expect(json).not.toMatch(/"(href|src)":"\s*(javascript|data|vbscript):/i);
    }
    // Unsafe addresses are among the pieces: some constructs were kept as text.
    expect(kept).toBeGreaterThan(10);
    // ~1 s on an idle machine.
  }, 30_000);

  test("a thousand nested tags are read without exhausting anything", () => {
    // The clock widened: on a loaded machine the limits under test, not the time budget, decide.
    const { doc } = widenMarkdownClock(20, () => read(`${"<b><i>".repeat(1000)}deep${"</i></b>".repeat(1000)}`));
    expect(JSON.stringify(doc)).toContain("deep");
    expect(() => checkContentJson(JSON.stringify(doc))).not.toThrow();
  });
});
