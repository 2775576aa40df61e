/**
 * GET /api/pages/{id}/export against the real app: Markdown, HTML and PDF files of a page with
 * every block, the space's switches, the 404s of what the caller may not read, bad input, and
 * the PDF printed by the real Chromium and checked with pdftoppm (poppler-utils).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { uploaded, PNG } from "../attachments/testing";
import { everythingDocument } from "../content/testing";
import { newPage, newSpace } from "../pages/testing";
import { decodePixels } from "../platform/image-codecs";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };
let pageId: string;
let smallImage: string;
let largeImage: string;

/** A PNG over the 2 MB inline cap: a real header, then padding. */
const LARGE_PNG = new Uint8Array(2 * 1024 * 1024 + 100);
LARGE_PNG.set(PNG);

beforeAll(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
  const space = await newSpace(env, owner, "DOCS");
  const page = await newPage(env, owner, space.id, 'Release plan: "Q3" / 2025 — 管理');
  pageId = page.id;
  smallImage = (await uploaded(env, owner, pageId, PNG, "dot.png")).id;
  largeImage = (await uploaded(env, owner, pageId, LARGE_PNG, "big.png")).id;
  const doc = everythingDocument();
  doc.content.push(
    { type: "image", attrs: { src: `/api/attachments/${smallImage}/view`, alt: "small dot" } } as never,
    { type: "image", attrs: { src: `/api/attachments/${largeImage}/view`, alt: "large picture" } } as never,
    { type: "paragraph", content: [{ type: "mention", attrs: { id: member.id, label: "Old Name" } }] } as never,
  );
  const put = await call(env, "PUT", `/api/pages/${pageId}`, {
    as: owner,
    body: { contentJson: JSON.stringify(doc), baseVersion: page.currentVersionNumber },
  });
  expect(put.status).toBe(200);
});
afterAll(() => env.close());

const exportOf = (format: string, who: Who | undefined = owner, id = pageId) =>
  call(env, "GET", `/api/pages/${id}/export?format=${format}`, { as: who });

describe("page export: Markdown", () => {
  test("a text/markdown download named after the title, with the title and every block", async () => {
    const res = await exportOf("markdown");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const disposition = res.headers.get("content-disposition")!;
    expect(disposition).toStartWith('attachment; filename="Release plan Q3 - 2025 _ __.md"');
    expect(decodeURIComponent(disposition.split("UTF-8''")[1])).toBe("Release plan Q3 - 2025 — 管理.md");
    expect(res.text).toStartWith('# Release plan: "Q3" / 2025 — 管理\n\n# Release plan 管理\n');
    for (const part of [
      "- [x] done",
      "```typescript",
      ':::panel {kind="warning"}',
      "| tall cell",
      "[budget-2025.xlsx](http://cairn.test/api/attachments/a-2/download)",
      `![small dot](http://cairn.test/api/attachments/${smallImage}/view)`,
    ]) {
      expect(res.text).toContain(part);
    }
    // A mention carries its person's current name, not the label stored when it was written.
    expect(res.text).toContain("@member");
    expect(res.text).not.toContain("Old Name");
  });
});

describe("page export: links to pages", () => {
  test(
    "a page link is the page's current title, linked to the page on the " + "instance; a page the exporter may not read shows no title",
    async () => {
      const space = await newSpace(env, owner, "LINKS");
      const target = await newPage(env, owner, space.id, "Old name");
      const secret = await newPage(env, owner, space.id, "Secret plans");
      expect(
        (
          await call(env, "POST", `/api/pages/${secret.id}/restrictions`, {
            as: owner,
            body: { principalType: 0, principalId: owner.id, operation: 0 },
          })
        ).status,
      ).toBe(201);
      const para = {
        type: "paragraph",
        content: [
          { type: "pageLink", attrs: { pageId: target.id } },
          { type: "text", text: " and " },
          { type: "pageLink", attrs: { pageId: secret.id } },
        ],
      };
      const from = await newPage(env, owner, space.id, "Index", { contentJson: JSON.stringify({ type: "doc", content: [para] }) });
      expect((await call(env, "PUT", `/api/pages/${target.id}`, { as: owner, body: { title: "New name" } })).status).toBe(200);
      const md = (who: Who) => call(env, "GET", `/api/pages/${from.id}/export?format=markdown`, { as: who }).then((r) => r.text);
      expect(await md(owner)).toBe(
        `# Index\n\n[New name](http://cairn.test/s/LINKS/p/${target.id}) and [Secret plans](http://cairn.test/s/LINKS/p/${secret.id})\n`,
      );
      expect(await md(member)).toBe(`# Index\n\n[New name](http://cairn.test/s/LINKS/p/${target.id}) and a page you cannot see\n`);
      const html = (await call(env, "GET", `/api/pages/${from.id}/export?format=html`, { as: member })).text;
      expect(html).toContain(
        `<a class="page-link" data-type="pageLink" data-page-id="${target.id}" ` +
          `href="http://cairn.test/s/LINKS/p/${target.id}">New name</a>`,
      );
      expect(html).toContain("a page you cannot see");
      expect(html).not.toContain("Secret");
    },
  );
});

describe("page export: HTML", () => {
  test(
    "one self-contained file: styles inlined light and dark, no script, a " + "strict CSP, a small image inlined and a large one linked",
    async () => {
      const res = await exportOf("html");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("content-disposition")).toContain(".html");
      // Served as a download and sandboxed: it never runs in the instance's origin.
      expect(res.headers.get("content-security-policy")).toStartWith("sandbox;");
      const html = res.text;
      expect(html).toStartWith("<!doctype html>");
      expect(html.toLowerCase()).not.toContain("<script");
      expect(html).not.toMatch(/\son[a-z]+=/i);
      expect(html).toContain(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data: https: http:; style-src 'unsafe-inline';`,
      );
      expect(html).toContain("<title>Release plan: &quot;Q3&quot; / 2025 — 管理</title>");
      expect(html).toContain("@media (prefers-color-scheme: dark)");
      expect(html).toContain('.prose div[data-kind="warning"]');
      expect(html).not.toContain("<link");
      expect(html).toContain(`<img src="data:image/png;base64,${Buffer.from(PNG).toString("base64")}" alt="small dot"`);
      expect(html).toContain(`<img src="http://cairn.test/api/attachments/${largeImage}/view" alt="large picture"`);
      expect(html).toContain('<div data-type="panel" data-kind="error" role="note" aria-label="Error">');
      expect(html).toContain('<a href="http://cairn.test/api/attachments/a-2/download">budget-2025.xlsx</a>');
      expect(html).toContain(">@member</span>");
    },
  );
});

const HAS_CHROMIUM = existsSync("/usr/bin/chromium");
const HAS_PDFTOPPM = existsSync("/usr/bin/pdftoppm");

describe("page export: PDF", () => {
  test.if(HAS_CHROMIUM && HAS_PDFTOPPM)(
    "Chromium prints it, and pdftoppm draws its first page as a PNG that is not blank",
    async () => {
      const res = await call(env, "GET", `/api/pages/${pageId}/export?format=pdf`, { as: owner });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("content-disposition")).toContain(".pdf");
      // call() reads the answer as text; fetch it again as bytes.
      const bytes = new Uint8Array(
        await (
          await env.handle(
            new Request(`http://cairn.test/api/pages/${pageId}/export?format=pdf`, {
              headers: { cookie: `cairn_session=${owner.cookie}` },
            }),
          )
        ).arrayBuffer(),
      );
      expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
      const dir = mkdtempSync(join(tmpdir(), "cairn-pdf-"));
      try {
        writeFileSync(join(dir, "page.pdf"), bytes);
        const ppm = Bun.spawnSync(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", join(dir, "page.pdf"), join(dir, "out")]);
        expect(ppm.exitCode).toBe(0);
        const png = readFileSync(join(dir, "out-1.png"));
        expect(await notBlank(png)).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  test("without Chromium: 503 export_unavailable saying how to install it", async () => {
    const other = makeEnv({ env: { CAIRN_CHROMIUM: "/nonexistent/chromium" } });
    try {
      const { owner: o } = await ownerAndMember(other);
      const space = await newSpace(other, o, "PDF");
      const page = await newPage(other, o, space.id, "Printed");
      const res = await call(other, "GET", `/api/pages/${page.id}/export?format=pdf`, { as: o });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe("export_unavailable");
      expect(res.body.detail).toContain("/nonexistent/chromium");
      expect(res.body.detail).toContain("apt-get install -y chromium");
      // The other formats need no Chromium.
      expect((await call(other, "GET", `/api/pages/${page.id}/export?format=html`, { as: o })).status).toBe(200);
    } finally {
      other.close();
    }
  });
});

describe("page export: access, switches and bad input", () => {
  test("each format honours the space's switch (403 export_disabled), the others unaffected", async () => {
    for (const format of ["markdown", "html", "pdf"]) {
      expect((await call(env, "PUT", "/api/spaces/DOCS/exports", { as: owner, body: { [format]: false } })).status).toBe(200);
      const res = await exportOf(format);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("export_disabled");
      const other = format === "markdown" ? "html" : "markdown";
      expect((await exportOf(other)).status).toBe(200);
      expect((await call(env, "PUT", "/api/spaces/DOCS/exports", { as: owner, body: { [format]: true } })).status).toBe(200);
    }
  });

  test("a page the caller may not read answers the same 404 as a missing one, before the switch is looked at", async () => {
    await call(env, "PUT", "/api/spaces/DOCS/exports", { as: owner, body: { markdown: false } });
    try {
      const missing = await exportOf("markdown", owner, "0190a6c8-0000-7000-8000-0000000000ff");
      expect(missing.status).toBe(404);
      const anonymous = await call(env, "GET", `/api/pages/${pageId}/export?format=markdown`);
      expect(anonymous.status).toBe(404);
      expect(anonymous.body.title).toBe(missing.body.title);
      const space = (await call(env, "GET", "/api/spaces/DOCS", { as: owner })).body;
      const secret = await newPage(env, owner, space.id, "Owner only");
      expect(
        (
          await call(env, "POST", `/api/pages/${secret.id}/restrictions`, {
            as: owner,
            body: { principalType: 0, principalId: owner.id, operation: 0 },
          })
        ).status,
      ).toBe(201);
      expect((await exportOf("html", owner, secret.id)).status).toBe(200);
      for (const format of ["markdown", "html", "pdf"]) {
        const hidden = await exportOf(format, member, secret.id);
        expect(hidden.status).toBe(404);
        expect(hidden.text).toBe((await exportOf(format, member, "0190a6c8-0000-7000-8000-0000000000ff")).text);
      }
    } finally {
      await call(env, "PUT", "/api/spaces/DOCS/exports", { as: owner, body: { markdown: true } });
    }
  });

  test.each([
    ["no format", "", "format"],
    ["an unknown format", "?format=docx", "format"],
    ["a format in capitals", "?format=PDF", "format"],
  ])("%s: 400 naming the field", async (_, query, field) => {
    const res = await call(env, "GET", `/api/pages/${pageId}/export${query}`, { as: owner });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });

  test("a malformed page id: 400 or 404, never a 500", async () => {
    const res = await exportOf("markdown", owner, "not-an-id");
    expect([400, 404]).toContain(res.status);
  });
});

/** Whether a PNG has pixels of more than one colour in more than 0.5% of it (the page drew something). */
async function notBlank(png: Uint8Array): Promise<boolean> {
  const { data } = await decodePixels("png", png);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const background = view.getUint32(0);
  let drawn = 0;
  for (let i = 0; i < data.byteLength; i += 4) if (view.getUint32(i) !== background) drawn++;
  return drawn > data.byteLength / 4 / 200;
}
