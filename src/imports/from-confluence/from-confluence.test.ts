import { afterAll, describe, expect, test } from "bun:test";
import { checkAsWritten, content, hrefs, nodes, openTestZip, pageTitled, removeTestZips, textOf } from "../from-markdown/testing";
import { fromConfluenceZip } from ".";
import { confluenceExport, PNG, type FixturePage } from "./testing";

afterAll(removeTestZips);

const HOME = "Engineering-Home_98305.html";
const GUIDES = "Guides_98310.html";
const SETUP = "Setting-up-your-machine_98321.html";
const DEPLOY = "98330.html";

const PAGES: FixturePage[] = [
  {
    file: HOME,
    title: "Engineering Home",
    ancestors: [],
    body:
      `<div class="contentLayout2"><div class="columnLayout two-equal" data-layout="two-equal">
      <div class="cell normal" ` +
      `data-type="normal"><div class="innerCell">
        <div class="toc-macro rbtoc1592231715066"><ul ` +
      `class="toc-indentation"><li><a href="#EngineeringHome-Welcome">Welcome</a></li></ul></div>
        <h1 ` +
      `id="EngineeringHome-Welcome">Welcome</h1>
        <p>Start with the <a href="${SETUP}">setup guide</a> and read <a ` +
      `href="${GUIDES}#Guides-Style">the style section</a>. Ask <a class="confluence-userlink user-mention" data-username="ada" ` +
      `href="https://wiki.example.com/display/~ada" data-linked-resource-id="12" data-base-url="https://wiki.example.com">Ada ` +
      `Lovelace</a>&nbsp;&mdash; she knows.</p>
      </div></div>
      <div class="cell normal" data-type="normal"><div ` +
      `class="innerCell">
        <div class="confluence-information-macro confluence-information-macro-information conf-macro ` +
      `output-block" data-hasbody="true" data-macro-name="info"><p class="title">Heads up</p><span class="aui-icon ` +
      `aui-icon-small aui-iconfont-info confluence-information-macro-icon"></span><div ` +
      `class="confluence-information-macro-body"><p>The wiki moved.</p></div></div>
        <div ` +
      `class="confluence-information-macro confluence-information-macro-note" data-macro-name="note"><span class="aui-icon ` +
      `aui-icon-small aui-iconfont-warning confluence-information-macro-icon"></span><div ` +
      `class="confluence-information-macro-body"><p>Mind the gap.</p></div></div>
        <div ` +
      `class="confluence-information-macro confluence-information-macro-warning" data-macro-name="warning"><div ` +
      `class="confluence-information-macro-body"><p>Do not delete production.</p></div></div>
        <div ` +
      `class="confluence-information-macro confluence-information-macro-tip" data-macro-name="tip"><div ` +
      `class="confluence-information-macro-body"><p>Use <code>make</code>.</p></div></div>
      </div></div>
    </div></div>`,
  },
  {
    file: GUIDES,
    title: "Guides",
    ancestors: [HOME],
    body:
      `<h2 id="Guides-Style">Style</h2>
      <p>Status: <span class="status-macro aui-lozenge aui-lozenge-success conf-macro ` +
      `output-inline" data-macro-name="status">DONE</span> <img class="emoticon emoticon-tick" data-emoticon-name="tick" ` +
      `src="images/icons/emoticons/check.svg" alt="(tick)"/></p>
      <ul><li>First <strong>bold</strong> and <em>italic</em> and ` +
      `<u>under</u> and <s>gone</s><ul><li>Nested</li></ul></li><li>Second</li></ul>
      <ol ` +
      `start="3"><li>Three</li><li>Four</li></ol>
      <ul class="inline-task-list" data-inline-tasks-content-id="98310"><li ` +
      `class="checked" data-inline-task-id="1"><span>Write the guide</span></li><li data-inline-task-id="2"><span>Review ` +
      `it</span></li></ul>
      <div class="table-wrap"><table class="wrapped ` +
      `confluenceTable"><colgroup><col/><col/></colgroup><tbody>
        <tr><th class="confluenceTh">Tool</th><th ` +
      `class="confluenceTh">Version</th></tr>
        <tr><td class="confluenceTd">node</td><td ` +
      `class="confluenceTd"><p>20</p></td></tr>
        <tr><td class="confluenceTd" colspan="2">Both columns</td></tr>
      ` +
      `</tbody></table></div>
      <div class="code panel pdl conf-macro output-block" style="border-width: 1px;" ` +
      `data-hasbody="true" data-macro-name="code"><div class="codeHeader panelHeader pdl" style="border-bottom-width: ` +
      `1px;"><b>install.sh</b></div><div class="codeContent panelContent pdl">
<pre class="syntaxhighlighter-pre" ` +
      `data-syntaxhighlighter-params="brush: bash; gutter: false; theme: Confluence" data-theme="Confluence">npm install ` +
      `&amp;&amp; npm test
echo "&lt;done&gt;"</pre>
</div></div>
      <div id="expander-1" class="expand-container conf-macro ` +
      `output-block" data-hasbody="true" data-macro-name="expand"><div id="expander-control-1" class="expand-control"><span ` +
      `class="expand-control-icon icon">&nbsp;</span><span class="expand-control-text">Click to see the details</span></div><div ` +
      `id="expander-content-1" class="expand-content"><p>Hidden text.</p></div></div>
      <div class="panel conf-macro ` +
      `output-block" style="border-width: 1px;" data-macro-name="panel"><div class="panelHeader" style="border-bottom-width: ` +
      `1px;"><b>Panel title</b></div><div class="panelContent"><p>Panel body.</p></div></div>
      <p><span class="jira-issue ` +
      `conf-macro output-block" data-jira-key="ENG-1" data-macro-name="jira"><a href="https://jira.example.com/browse/ENG-1" ` +
      `class="jira-issue-key">ENG-1</a> - Fix it</span></p>
      <blockquote><p>A quote.</p></blockquote><hr/>`,
  },
  {
    file: SETUP,
    title: "Setting up your machine",
    ancestors: [HOME, GUIDES],
    body:
      `<p>Here is the screen:</p>
      <p><span class="confluence-embedded-file-wrapper confluence-embedded-manual-size"><img ` +
      `class="confluence-embedded-image" height="250" src="attachments/98321/98322.png" ` +
      `data-image-src="attachments/98321/98322.png" data-linked-resource-id="98322" data-linked-resource-type="attachment" ` +
      `data-linked-resource-default-alias="screen shot.png" data-base-url="https://wiki.example.com" ` +
      `data-linked-resource-container-id="98321"></span></p>
      <p><a href="attachments/98321/98323.pdf" ` +
      `data-linked-resource-id="98323" data-linked-resource-type="attachment" ` +
      `data-linked-resource-default-alias="checklist.pdf">checklist.pdf</a></p>
      <p>Back to <a href="index.html">the ` +
      `space</a>, on to <a href="${DEPLOY}">deploying</a>, and <a href="Missing_1.html">nowhere</a>. A logo: <img ` +
      `src="https://example.com/logo.png" alt="logo"/></p>
      <div class="confluence-information-macro ` +
      `confluence-information-macro-note"><div class="confluence-information-macro-body"><p>See <a ` +
      `href="/pages/viewpage.action?pageId=98330">the deploy page</a>.</p></div></div>`,
    attachments: [
      { path: "attachments/98321/98322.png", name: "screen shot.png", type: "image/png" },
      { path: "attachments/98321/98323.pdf", name: "checklist.pdf", type: "application/pdf" },
      { path: "attachments/98321/98324.txt", name: "notes.txt", type: "text/plain" },
    ],
  },
  {
    file: DEPLOY,
    title: "Deploy",
    ancestors: [HOME],
    body: `<p>Deploy with care.</p><script>alert(1)</script><div class="unknown-plugin" data-macro-name="gliffy"><p>Diagram text</p></div>`,
  },
];

const FILES = {
  "attachments/98321/98322.png": PNG,
  "attachments/98321/98323.pdf": new TextEncoder().encode("%PDF-1.4"),
  "attachments/98321/98324.txt": "notes",
  "attachments/55555/1.png": PNG,
};

describe("a Confluence space export", () => {
  test("the breadcrumbs give the tree, the overview its order; titles lose the space's name; bylines give authors and dates", async () => {
    let converted = 0;
    const space = await fromConfluenceZip(await openTestZip(confluenceExport("Engineering", "ENG", PAGES, FILES)), () => converted++);
    expect(converted).toBe(PAGES.length);
    expect(space.format).toBe("confluence");
    expect(space.space).toEqual({ name: "Engineering", key: "ENG" });
    const titleOf = (ref: string | null) => (ref ? space.pages.find((p) => p.ref === ref)!.title : null);
    expect(space.pages.map((p) => [p.title, titleOf(p.parent), p.position])).toEqual([
      ["Engineering Home", null, 0],
      ["Guides", "Engineering Home", 0],
      ["Setting up your machine", "Guides", 0],
      ["Deploy", "Engineering Home", 1],
    ]);
    expect(space.homepage).toBe(pageTitled(space, "Engineering Home").ref);
    expect(space.authors).toEqual([
      { ref: "a1", name: "Ada Lovelace", email: null },
      { ref: "a2", name: "Grace Hopper", email: null },
    ]);
    const guides = pageTitled(space, "Guides");
    expect([guides.createdBy, guides.updatedBy, guides.updatedAt]).toEqual(["a1", "a2", "2019-06-29T00:00:00.000Z"]);
    for (const page of space.pages) expect(() => checkAsWritten(space, page)).not.toThrow();
  });

  test("macros and markup map to their blocks: panels, code, tables, task lists, expands; the rest keeps its text", async () => {
    const space = await fromConfluenceZip(await openTestZip(confluenceExport("Engineering", "ENG", PAGES, FILES)));
    const home = content(pageTitled(space, "Engineering Home"));
    const panels = home.content!.filter((n) => n.type === "panel");
    expect(panels.map((p) => p.attrs!.kind)).toEqual(["info", "warning", "error", "success"]);
    expect(panels[0].content![0].content![0]).toMatchObject({ text: "Heads up", marks: [{ type: "bold" }] });
    expect(textOf(panels[0].content![1])).toBe("The wiki moved.");
    expect(home.content![0]).toMatchObject({ type: "heading", attrs: { level: 1 } });
    const intro = textOf(home.content![1]);
    expect(intro).toBe("Start with the setup guide and read the style section. Ask @Ada Lovelace\u00a0— she knows.");
    const guides = pageTitled(space, "Guides");
    const setup = pageTitled(space, "Setting up your machine");
    expect(hrefs(home)).toEqual([`cairn-page:${setup.ref}`, `cairn-page:${guides.ref}#Guides-Style`]);

    const doc = content(guides);
    const types = doc.content!.map((n) => n.type);
    expect(types).toEqual([
      "heading",
      "paragraph",
      "bulletList",
      "orderedList",
      "taskList",
      "table",
      "paragraph",
      "codeBlock",
      "details",
      "panel",
      "paragraph",
      "blockquote",
      "horizontalRule",
    ]);
    expect(textOf(doc.content![1])).toBe("Status: DONE ✅");
    const bullets = doc.content![2];
    expect(nodes(bullets).filter((n) => n.type === "listItem")).toHaveLength(3);
    expect(nodes(bullets).flatMap((n) => n.marks?.map((m) => m.type) ?? [])).toEqual(["bold", "italic", "underline", "strike"]);
    expect(doc.content![3].attrs!.start).toBe(3);
    expect(doc.content![4].content!.map((t) => [t.attrs!.checked, textOf(t)])).toEqual([
      [true, "Write the guide"],
      [false, "Review it"],
    ]);
    const rows = doc.content![5].content!;
    expect(rows.map((r) => r.content!.map((c) => c.type))).toEqual([
      ["tableHeader", "tableHeader"],
      ["tableCell", "tableCell"],
      ["tableCell"],
    ]);
    expect(rows[2].content![0].attrs).toMatchObject({ colspan: 2 });
    expect(textOf(doc.content![6])).toBe("install.sh");
    expect(doc.content![7]).toEqual({
      type: "codeBlock",
      attrs: { language: "bash" },
      content: [{ type: "text", text: 'npm install && npm test\necho "<done>"' }],
    });
    expect(doc.content![8].content!.map(textOf)).toEqual(["Click to see the details", "Hidden text."]);
    expect(doc.content![9]).toMatchObject({ type: "panel", attrs: { kind: "info" } });
    expect(textOf(doc.content![9])).toBe("Panel titlePanel body.");
    expect(hrefs(doc.content![10])).toEqual(["https://jira.example.com/browse/ENG-1"]);

    const deploy = content(pageTitled(space, "Deploy"));
    expect(textOf(deploy)).toBe("Deploy with care.\nDiagram text");
    const mapped = Object.fromEntries(space.mapped.map((m) => [m.what, m.count]));
    expect(mapped).toMatchObject({
      "tables of contents": 1,
      "page layouts with columns": 1,
      "user mentions": 1,
      "status lozenges": 1,
      emoticons: 1,
      "panel macros": 1,
      'macro "gliffy"': 1,
    });
  });

  test("attachments come with their names and bytes; images and file links point at them; links resolve between pages", async () => {
    const space = await fromConfluenceZip(await openTestZip(confluenceExport("Engineering", "ENG", PAGES, FILES)));
    const setup = pageTitled(space, "Setting up your machine");
    expect(setup.attachments.map((a) => [a.filename, a.contentType, a.blob])).toEqual([
      ["screen shot.png", "image/png", "attachments/98321/98322.png"],
      ["checklist.pdf", "application/pdf", "attachments/98321/98323.pdf"],
      ["notes.txt", "text/plain", "attachments/98321/98324.txt"],
    ]);
    const [shot, checklist] = setup.attachments;
    const doc = content(setup);
    expect(doc.content!.map((n) => n.type)).toEqual(["paragraph", "image", "attachment", "paragraph", "image", "panel"]);
    expect(doc.content![1].attrs).toMatchObject({ src: `cairn-attachment:${shot.ref}`, height: 250 });
    expect(doc.content![2].attrs).toMatchObject({ attachmentId: checklist.ref, filename: "checklist.pdf", size: 8 });
    expect(doc.content![4].attrs).toMatchObject({ src: "https://example.com/logo.png", alt: "logo" });
    const home = pageTitled(space, "Engineering Home");
    const deploy = pageTitled(space, "Deploy");
    expect(hrefs(doc)).toEqual([`cairn-page:${home.ref}`, `cairn-page:${deploy.ref}`, `cairn-page:${deploy.ref}`]);
    expect(textOf(doc.content![3])).toContain("nowhere");
    expect(await space.blobs.get(checklist.blob)!.read()).toEqual(new TextEncoder().encode("%PDF-1.4"));
    expect(space.skipped).toContainEqual({ path: `ENG/${SETUP}`, reason: expect.stringContaining("Missing_1.html") });
    expect(space.skipped).toContainEqual({ path: "ENG/attachments/55555/1.png", reason: expect.stringContaining("not in the export") });
    expect(space.skipped).toContainEqual({ path: "ENG/styles", reason: expect.stringContaining("icons and styles") });
    expect(space.blobs.size).toBe(3);
    for (const page of space.pages) expect(() => checkAsWritten(space, page)).not.toThrow();
  });

  test("breadcrumbs that loop put the page at the top; a zip without index.html is refused", async () => {
    const looping: FixturePage[] = [
      { file: "A_1.html", title: "A", ancestors: ["B_2.html"], body: "<p>a</p>" },
      { file: "B_2.html", title: "B", ancestors: ["A_1.html"], body: "<p>b</p>" },
    ];
    const space = await fromConfluenceZip(await openTestZip(confluenceExport("Loop", "LOOP", looping)));
    expect(space.pages.some((p) => p.parent === null)).toBe(true);
    const seen = new Set<string>();
    for (const page of space.pages) {
      if (page.parent) expect(seen.has(page.parent)).toBe(true);
      seen.add(page.ref);
    }
    expect(space.pages).toHaveLength(2);
    await expect(fromConfluenceZip(await openTestZip({ "x/page.html": "<p>hi</p>" }))).rejects.toThrow("no index.html");
  });

  test("markup nested too deeply to walk keeps its text, counted in mapped", async () => {
    const deep = `${"<div>".repeat(30_000)}<p>deep</p>${"</div>".repeat(30_000)}`;
    const pages: FixturePage[] = [
      { file: "Deep_1.html", title: "Deep", ancestors: [], body: deep },
      { file: "Fine_2.html", title: "Fine", ancestors: [], body: "<p>fine</p>" },
    ];
    const space = await fromConfluenceZip(await openTestZip(confluenceExport("Nest", "NEST", pages)));
    expect(space.pages.map((p) => p.title)).toEqual(["Deep", "Fine"]);
    expect(textOf(content(pageTitled(space, "Fine")))).toBe("fine");
    expect(textOf(content(pageTitled(space, "Deep")))).toBe("deep");
    expect(space.mapped).toContainEqual(expect.objectContaining({ what: "markup nested too deeply", count: 1 }));
    for (const page of space.pages) expect(() => checkAsWritten(space, page)).not.toThrow();
  });

  test("a page that converts to more than a page could hold is refused as it is converted, naming it and the limit", async () => {
    const pages: FixturePage[] = [
      { file: "Wall_1.html", title: "Wall", ancestors: [], body: `<p>${Array.from({ length: 700_000 }, (_, i) => `w${i}`).join(" ")}</p>` },
    ];
    const refused = fromConfluenceZip(await openTestZip(confluenceExport("Text", "TEXT", pages)));
    await expect(refused).rejects.toMatchObject({ problemCode: "import_refused" });
    await expect(refused).rejects.toThrow(
      /^TEXT\/Wall_1\.html: the page is too large to import: it converts to a document of \d\.\d MB \(a page holds at most 2 MB\)$/,
    );
  });
});
