import { afterAll, describe, expect, test } from "bun:test";
import { seededRandom } from "../../content/sample";
import { fromMarkdownZip } from ".";
import { checkAsWritten, content, hrefs, nodes, openTestZip, pageTitled, PNG, removeTestZips, textOf } from "./testing";

afterAll(removeTestZips);

/** Text that does not compress (a long run of one letter would be refused as a zip bomb). */
function noise(length: number): string {
  const rnd = seededRandom(7);
  return Array.from({ length }, () => "abcdefghijklmnopqrstuvwxyz \n"[Math.floor(rnd() * 28)]).join("");
}

describe("a Markdown zip", () => {
  test(
    "folders become the tree, ordered by name with numbers compared as numbers; " + "titles from front matter, a first heading or the name",
    async () => {
      let converted = 0;
      const space = await fromMarkdownZip(
        await openTestZip({
          "handbook/README.md": "# Welcome\n\nStart here.\n",
          "handbook/10 Deploy.md": "Deploying.\n",
          "handbook/2 Setup.md":
            '---\ntitle: Setting up\ntags: [onboarding, "#ops"]\ncreated: 2024-03-01\n---\n# Setting up\n\nInstall it.\n',
          "handbook/Guides.md": "The guides.\n",
          "handbook/Guides/Writing.md": "# Writing well\n\nShort sentences.\n",
          "handbook/Guides/Style/index.md": "# Style\n\nThe house style.\n",
          "handbook/Guides/Style/Tone.md": "Friendly.\n",
          "handbook/Reference/API.md": "Endpoints.\n",
          "handbook/Meeting notes 0123456789abcdef0123456789abcdef.md": "Notes.\n",
        }),
        () => converted++,
      );
      // Progress: one step per page.
      expect(converted).toBe(space.pages.length);
      expect(space.format).toBe("markdown");
      // The one folder around everything is the archive's wrapper: its name is the space's.
      expect(space.space.name).toBe("handbook");
      const tree = space.pages.map((p) => [p.title, p.parent && space.pages.find((q) => q.ref === p.parent)!.title, p.position]);
      expect(tree).toEqual(
        [
          ["Setting up", null, 0],
          ["Deploy", null, 1],
          ["Guides", null, 2],
          ["Style", "Guides", 0],
          ["Tone", "Style", 0],
          ["Writing well", "Guides", 1],
          ["Meeting notes", null, 3],
          ["Welcome", null, 4],
          ["Reference", null, 5],
          ["API", "Reference", 0],
        ].map(([title, parent, position]) => [title === "Deploy" ? "10 Deploy" : title, parent, position]),
      );
      // README is the home page; its first heading became the title and left the body.
      expect(space.homepage).toBe(pageTitled(space, "Welcome").ref);
      expect(textOf(content(pageTitled(space, "Welcome")))).toBe("Start here.");
      const setup = pageTitled(space, "Setting up");
      expect(setup.labels).toEqual(["onboarding", "ops"]);
      expect(setup.createdAt).toBe("2024-03-01T00:00:00.000Z");
      expect(textOf(content(setup))).toBe("Install it.");
      // A folder with no page of its own is an empty page holding its children.
      expect(content(pageTitled(space, "Reference")).content).toEqual([{ type: "paragraph" }]);
      expect(space.mapped).toContainEqual(expect.objectContaining({ what: "folders without a page of their own", count: 1 }));
      // Parents come before their children.
      const seen = new Set<string>();
      for (const page of space.pages) {
        if (page.parent) expect(seen.has(page.parent)).toBe(true);
        seen.add(page.ref);
      }
      // Every body is a document the editor can open.
      for (const page of space.pages) expect(() => checkAsWritten(space, page)).not.toThrow();
    },
  );

  test("relative links (URL-encoded, with anchors and ../, with or without .md) and [[wikilinks]] point at the pages", async () => {
    const space = await fromMarkdownZip(
      await openTestZip({
        "Home.md":
          "See [the setup](Guides/Set%20up.md#install), [deploy](Guides/Deploy) and [[Set up|setting up]], " +
          "[[Guides/Deploy#Rollback]] and [[Nowhere]]. Also [out](https://example.com/x) and [top](#top).\n",
        "Guides/Set up.md": "Back [home](../Home.md). Missing [gone](../gone.md).\n",
        "Guides/Deploy.md": "`[[not a link]]` stays code. ![[Set up]]\n",
      }),
    );
    const home = pageTitled(space, "Home");
    const setUp = pageTitled(space, "Set up");
    const deploy = pageTitled(space, "Deploy");
    expect(hrefs(content(home))).toEqual([
      `cairn-page:${setUp.ref}#install`,
      `cairn-page:${deploy.ref}`,
      `cairn-page:${setUp.ref}`,
      `cairn-page:${deploy.ref}`,
      "https://example.com/x",
      "#top",
    ]);
    expect(textOf(content(home))).toContain("setting up");
    expect(textOf(content(home))).toContain("Nowhere");
    expect(hrefs(content(setUp))).toEqual([`cairn-page:${home.ref}`]);
    expect(textOf(content(setUp))).toContain("gone");
    // An embedded note becomes a link; wikilink brackets inside code stay as typed.
    expect(hrefs(content(deploy))).toEqual([`cairn-page:${setUp.ref}`]);
    expect(textOf(content(deploy))).toContain("[[not a link]]");
    expect(space.skipped.map((s) => s.path)).toEqual(expect.arrayContaining(["Home.md", "Guides/Set up.md"]));
    expect(space.skipped.find((s) => s.path === "Guides/Set up.md")!.reason).toContain("../gone.md");
    expect(space.mapped).toContainEqual(expect.objectContaining({ what: "embedded notes", count: 1 }));
    for (const page of space.pages) expect(() => checkAsWritten(space, page)).not.toThrow();
  });

  test("images and files become attachments with their bytes; a paragraph that is only a file link is an attachment block", async () => {
    const pdf = new TextEncoder().encode("%PDF-1.4 test");
    const zip = await openTestZip({
      "Notes/Trip.md":
        "![The view](../images/view%201.png)\n\n[report.pdf](files/report.pdf)\n\nRead [the " +
        "report](files/report.pdf) first. ![[view 1.png]]\n\n![gone](missing.png)\n",
      "Notes/files/report.pdf": pdf,
      "Notes/loose.txt": "nobody links here",
      "images/view 1.png": PNG,
      "images/unused.png": PNG,
      "Notes.md": "The notes.\n",
    });
    const space = await fromMarkdownZip(zip);
    const trip = pageTitled(space, "Trip");
    const doc = content(trip);
    // The image and the PDF are attached once each, however often the page uses them.
    expect(trip.attachments.map((a) => [a.filename, a.contentType, a.blob])).toEqual([
      ["view 1.png", "image/png", "images/view 1.png"],
      ["report.pdf", "application/pdf", "Notes/files/report.pdf"],
    ]);
    const [image, report] = trip.attachments;
    const types = doc.content!.map((n) => n.type);
    expect(types).toEqual(["image", "attachment", "paragraph", "image", "paragraph"]);
    expect(doc.content![0].attrs).toMatchObject({ src: `cairn-attachment:${image.ref}`, alt: "The view" });
    expect(doc.content![1].attrs).toMatchObject({ attachmentId: report.ref, filename: "report.pdf", size: pdf.length });
    expect(hrefs(doc)).toEqual([`cairn-attachment:${report.ref}`]);
    expect(doc.content![3].attrs).toMatchObject({ src: `cairn-attachment:${image.ref}` });
    // An image that is not in the zip keeps its description as text.
    expect(textOf(doc.content![4])).toBe("gone");
    // The bytes are there to read.
    expect(await space.blobs.get(report.blob)!.read()).toEqual(pdf);
    // A file nothing links to goes with its folder's page, or is left out when its folder is no page.
    const notes = pageTitled(space, "Notes");
    expect(notes.attachments.map((a) => a.filename)).toEqual(["loose.txt"]);
    expect(space.skipped).toContainEqual(expect.objectContaining({ path: "images/unused.png" }));
    for (const page of space.pages) expect(() => checkAsWritten(space, page)).not.toThrow();
  });

  test("callouts become panels (GitHub's five and Obsidian's kinds), with their title in bold", async () => {
    const space = await fromMarkdownZip(
      await openTestZip({
        "Callouts.md": [
          "> [!NOTE]\n> Useful information.",
          "> [!TIP] Pro tip\n> Do this.",
          "> [!IMPORTANT]\n> Key.",
          "> [!WARNING]\n> Careful.",
          "> [!CAUTION]\n> Danger.",
          "> [!bug]- Known issue\n> Folded.\n>\n> - a list inside",
          "> [!quote]\n> Just a quote.",
          "> A plain quote.",
        ].join("\n\n"),
      }),
    );
    const doc = content(space.pages[0]);
    const top = doc.content!;
    expect(top.map((n) => n.type)).toEqual(["panel", "panel", "panel", "panel", "panel", "panel", "blockquote", "blockquote"]);
    expect(top.slice(0, 6).map((n) => n.attrs!.kind)).toEqual(["info", "success", "note", "warning", "error", "error"]);
    expect(textOf(top[0])).toBe("Useful information.");
    expect(top[1].content![0].content![0]).toMatchObject({ text: "Pro tip", marks: [{ type: "bold" }] });
    expect(textOf(top[1].content![1])).toBe("Do this.");
    expect(top[5].content!.map((n) => n.type)).toEqual(["paragraph", "paragraph", "bulletList"]);
    expect(textOf(top[6])).toBe("Just a quote.");
    expect(space.mapped).toContainEqual(expect.objectContaining({ what: "folding callouts" }));
    expect(() => checkAsWritten(space, space.pages[0])).not.toThrow();
  });

  test("what is not content is skipped with a reason; a body past a whole page's limits leaves an empty page", async () => {
    const space = await fromMarkdownZip(
      await openTestZip({
        "wiki/Home.md": "Home.\n",
        "wiki/_Sidebar.md": "* [[Home]]\n",
        "wiki/.obsidian/app.json": "{}",
        "wiki/.obsidian/workspace.json": "{}",
        "wiki/Huge.md": noise(1024 * 1024 + 10),
        "wiki/Huger.md": noise(2 * 1024 * 1024 + 10),
        "wiki/Notion.md": "<aside>\n💡 A Notion callout\n</aside>\n",
      }),
    );
    expect(space.pages.map((p) => p.title)).toEqual(["Home", "Huge", "Huger", "Notion"]);
    // Too large to hold: not even read.
    expect(space.skipped).toContainEqual({ path: "wiki/Huger.md", reason: expect.stringContaining("more than a page holds") });
    expect(space.skipped).toContainEqual({ path: "wiki/.obsidian", reason: expect.stringContaining("hidden") });
    expect(space.skipped.filter((s) => s.path.includes(".obsidian"))).toHaveLength(1);
    expect(space.skipped).toContainEqual({ path: "wiki/_Sidebar.md", reason: expect.stringContaining("navigation") });
    expect(space.skipped).toContainEqual({ path: "wiki/Huge.md", reason: expect.stringContaining("the page is empty") });
    expect(content(pageTitled(space, "Huge")).content).toEqual([{ type: "paragraph" }]);
    const notion = content(pageTitled(space, "Notion"));
    expect(notion.content![0]).toMatchObject({ type: "panel", attrs: { kind: "info" } });
    expect(nodes(notion).some((n) => n.text?.includes("<aside>"))).toBe(false);
  });

  test(
    "one construct the converter cannot read never empties the page: the rest " + "comes in, the construct is kept as text and named",
    async () => {
      const space = await fromMarkdownZip(
        await openTestZip({
          "Guide.md": [
            "# Guide",
            "Install [@y/websocket-server](https://github.com/yjs/y-websocket-server) first.",
            "A [bad link](javascript:alert(1)) in a sentence.",
            "Intro to the long part.",
            "word ".repeat(4000),
            "The end, with **bold**.",
          ].join("\n\n"),
        }),
      );
      const doc = content(pageTitled(space, "Guide"));
      // The mention-looking link is an ordinary link; the unsafe one is its words.
      expect(hrefs(doc)).toEqual(["https://github.com/yjs/y-websocket-server"]);
      const text = textOf(doc);
      expect(text).toContain("Install @y/websocket-server first.");
      expect(text).toContain("A bad link in a sentence.");
      // The paragraph too long to read as Markdown is its text; what follows it is still Markdown.
      expect(text).toContain("word word word");
      expect(nodes(doc).some((n) => n.text === "bold" && n.marks?.[0]?.type === "bold")).toBe(true);
      const reasons = space.skipped.filter((s) => s.path === "Guide.md").map((s) => s.reason);
      expect(reasons).toContainEqual(
        expect.stringMatching(/^a construct the converter cannot read is kept as text: "bad link" .*javascript:/),
      );
      expect(reasons).toContainEqual(
        expect.stringMatching(/^a construct the converter cannot read is kept as text: "word word .*has a paragraph/),
      );
      expect(() => checkAsWritten(space, space.pages[0])).not.toThrow();
    },
  );

  test("HTML inside Markdown is read as what it means; relative images are attachments, images from other sites links", async () => {
    const space = await fromMarkdownZip(
      await openTestZip({
        "README.md": [
          '<p align="center">\n  <img src="images/logo.png" width="120" alt="Logo">\n</p>',
          "# My library",
          '[![npm](https://img.shields.io/npm/v/x.svg)](https://www.npmjs.com/package/x) <img src="https://badgen.net/x" alt="size">',
          "Line one<br>line two, H<sub>2</sub>O, x<sup>2</sup>, <a " +
            'href="docs/api.md">the API</a>, <kbd>Ctrl</kbd>, <b>bold</b>, Map<K, V>.',
          "<details>\n<summary>More</summary>\n\nHidden **words**.\n\n</details>",
          '<table>\n<tr><th>Name</th><th>Shot</th></tr>\n<tr><td>One</td><td><img src="images/shot.png"></td></tr>\n</table>',
          "<!-- a comment nobody sees -->",
          "The end.",
        ].join("\n\n"),
        "docs/api.md": "# API\n\nCalls.\n",
        "images/logo.png": PNG,
        "images/shot.png": PNG,
      }),
    );
    const readme = pageTitled(space, "My library");
    const doc = content(readme);
    expect(readme.attachments.map((a) => a.filename)).toEqual(["logo.png", "shot.png"]);
    expect(doc.content![0]).toMatchObject({
      type: "image",
      attrs: { src: `cairn-attachment:${readme.attachments[0].ref}`, alt: "Logo", width: 120 },
    });
    // Badges: their words, linked where the badge linked (or to the image).
    const api = pageTitled(space, "API");
    expect(hrefs(doc)).toEqual(["https://www.npmjs.com/package/x", "https://badgen.net/x", `cairn-page:${api.ref}`]);
    expect(space.mapped).toContainEqual(expect.objectContaining({ what: "images from other sites", count: 2 }));
    const marks = (word: string) =>
      nodes(doc)
        .find((n) => n.text === word)
        ?.marks?.map((m) => m.type);
    expect(marks("2")).toEqual(["subscript"]);
    expect(
      nodes(doc)
        .filter((n) => n.text === "2")
        .map((n) => n.marks![0].type),
    ).toEqual(["subscript", "superscript"]);
    expect(marks("Ctrl")).toEqual(["code"]);
    expect(marks("bold")).toEqual(["bold"]);
    expect(nodes(doc).some((n) => n.type === "hardBreak")).toBe(true);
    expect(textOf(doc)).toContain("Map<K, V>.");
    const details = doc.content!.find((n) => n.type === "details")!;
    expect(textOf(details.content![0])).toBe("More");
    expect(textOf(details.content![1])).toBe("Hidden words.");
    const table = doc.content!.find((n) => n.type === "table")!;
    expect(table.content!.map((row) => row.content!.map((c) => c.type))).toEqual([
      ["tableHeader", "tableHeader"],
      ["tableCell", "tableCell"],
    ]);
    expect(nodes(table).find((n) => n.type === "image")!.attrs!.src).toBe(`cairn-attachment:${readme.attachments[1].ref}`);
    // Nothing is left as the tags typed.
    expect(textOf(doc)).not.toMatch(/<\/?(p|img|details|summary|table|sub|sup|a|b|kbd|br)\b|<!--/);
    expect(space.skipped).toEqual([]);
    for (const page of space.pages) expect(() => checkAsWritten(space, page)).not.toThrow();
  });

  test("folders nested thousands deep are read without exhausting the stack", async () => {
    const deep = `${Array.from({ length: 3000 }, (_, i) => `d${i}`).join("/")}/Bottom.md`;
    const space = await fromMarkdownZip(await openTestZip({ [deep]: "The bottom.\n", "Top.md": "Top.\n" }));
    expect(space.pages).toHaveLength(3002);
    expect(space.pages.at(-1)!.title).toBe("Top");
    expect(space.pages.find((p) => p.title === "Bottom")!.parent).toBe(space.pages.find((p) => p.title === "d2999")!.ref);
  });
});
