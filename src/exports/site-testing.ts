/** Test helpers for the static site export: a space with a tree, links, files and a restricted branch. */
import { unzipSync } from "fflate";
import { call, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { PNG, uploaded } from "../attachments/testing";
import { newPage, newSpace } from "../pages/testing";

const text = (t: string, marks?: unknown[]) => (marks ? { type: "text", text: t, marks } : { type: "text", text: t });
const para = (...content: unknown[]) => ({ type: "paragraph", content });
const link = (t: string, href: string) => text(t, [{ type: "link", attrs: { href } }]);
const docOf = (...content: unknown[]) => JSON.stringify({ type: "doc", content });

/** The words only one page holds, to search for. */
export const DEEP_WORD = "zanzibarquux";
export const SECRET_WORD = "plutoniumvault";

export async function siteFixture(env: TestEnv) {
  const { owner, member } = await ownerAndMember(env);
  const space = await newSpace(env, owner, "DOCS", "Team Docs");
  const start = await newPage(env, owner, space.id, "Getting started", { contentJson: docOf(para(text("Welcome to the docs."))) });
  const install = await newPage(env, owner, space.id, "Install", { parentPageId: start.id });
  const deep = await newPage(env, owner, space.id, "Linux setup", {
    parentPageId: install.id,
    contentJson: docOf({ type: "heading", attrs: { level: 2 }, content: [text("Steps")] }, para(text(`Run the ${DEEP_WORD} installer.`))),
  });
  const unicode = await newPage(env, owner, space.id, "Résumé 管理", { parentPageId: deep.id });
  const secret = await newPage(env, owner, space.id, "Secret plans", {
    contentJson: docOf(para(text(`The ${SECRET_WORD} is behind the door.`))),
  });
  const secretChild = await newPage(env, owner, space.id, "Secret child", { parentPageId: secret.id });
  const notesA = await newPage(env, owner, space.id, "Notes", { parentPageId: start.id });
  const notesB = await newPage(env, owner, space.id, "Notes", { parentPageId: start.id });
  // Files: an image and a document on Install, a file on the secret page.
  const picture = await uploaded(env, owner, install.id, PNG, "pixel.png", "image/png");
  const sheet = await uploaded(env, owner, install.id, "a,b\n1,2\n", "data: sheet.csv", "text/csv");
  const hidden = await uploaded(env, owner, secretChild.id, "top secret bytes", "secret.txt", "text/plain");
  await update(
    env,
    owner,
    install.id,
    docOf(
      para(text("Read "), link("the Linux steps", `/s/DOCS/p/${deep.id}-linux-setup#steps`), text(" first.")),
      {
        type: "panel",
        attrs: { kind: "info" },
        content: [para(text("You need an account with "), text("Edit", [{ type: "bold" }]), text(" rights."))],
      },
      { type: "heading", attrs: { level: 2 }, content: [text("Requirements")] },
      { type: "bulletList", content: ["A 64-bit system", "500 MB of disk"].map((t) => ({ type: "listItem", content: [para(text(t))] })) },
      { type: "codeBlock", attrs: { language: "bash" }, content: [text("curl -fsSL https://example.com/install.sh | sh")] },
      { type: "image", attrs: { src: `/api/attachments/${picture.id}/view`, alt: "pixel" } },
      { type: "attachment", attrs: { attachmentId: sheet.id, filename: sheet.filename, size: sheet.size, contentType: sheet.contentType } },
      para(
        link("the plans", `/s/DOCS/p/${secret.id}-secret-plans`),
        text(" and "),
        link("the web", "https://example.com/x"),
        text(" and "),
        link("home", "/s/DOCS"),
      ),
    ),
  );
  // Page links by id (content/page-links.ts): two nodes, one to the secret page, and linked text.
  await update(
    env,
    owner,
    unicode.id,
    docOf(
      para(
        { type: "pageLink", attrs: { pageId: install.id } },
        text(" then "),
        { type: "pageLink", attrs: { pageId: secret.id } },
        text(" and "),
        link("the start", `/p/${start.id}#top`),
      ),
    ),
  );
  await update(
    env,
    owner,
    secretChild.id,
    docOf({
      type: "attachment",
      attrs: { attachmentId: hidden.id, filename: hidden.filename, size: hidden.size, contentType: hidden.contentType },
    }),
  );
  await call(env, "POST", `/api/pages/${install.id}/labels`, { as: owner, body: { name: "how-to" } });
  // Only the owner (a space admin, never shut out anyway) may see the secret branch.
  const restricted = await call(env, "POST", `/api/pages/${secret.id}/restrictions`, {
    as: owner,
    body: { principalType: 0, principalId: owner.id, operation: 0 },
  });
  if (restricted.status !== 201 && restricted.status !== 200) throw new Error(`restrict: ${restricted.status} ${restricted.text}`);
  return { owner, member, space, start, install, deep, unicode, secret, secretChild, notesA, notesB, picture, sheet, hidden };
}

async function update(env: TestEnv, who: Who, id: string, contentJson: string) {
  const res = await call(env, "PUT", `/api/pages/${id}`, { as: who, body: { contentJson } });
  if (res.status !== 200) throw new Error(`update ${id}: ${res.status} ${res.text}`);
}

/** GET the site export; the raw answer and, when it is a zip, its files. */
export async function siteExport(env: TestEnv, who: Who | undefined, key: string, query = "") {
  const headers: Record<string, string> = {};
  if (who?.cookie) headers.cookie = `cairn_session=${who.cookie}`;
  const res = await env.handle(new Request(`http://cairn.test/api/spaces/${key}/export/site${query}`, { headers }));
  const bytes = new Uint8Array(await res.arrayBuffer());
  const zip = res.headers.get("content-type") === "application/zip" ? unzipSync(bytes) : null;
  const files = zip ? new Map(Object.entries(zip)) : new Map<string, Uint8Array>();
  const textOf = (path: string) => {
    const f = files.get(path);
    if (!f) throw new Error(`no ${path} in the zip: ${[...files.keys()].join(", ")}`);
    return new TextDecoder().decode(f);
  };
  return { res, bytes, files, textOf, json: () => JSON.parse(new TextDecoder().decode(bytes)) };
}

/**
 * Files that would run script if a static host served them as they came: each calls a URL
 * under /pwned/ (which a test's host watches) and sets a global. Uploaded to a page "Files",
 * under the front page, which shows them as attachment blocks and the SVG as an image.
 */
export const HOSTILE = {
  svg:
    `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" ` +
    `onload="window.PWNED='svg-onload';fetch('/pwned/svg-onload')">` +
    `<script>window.PWNED='svg-script';fetch('/pwned/svg-script')</script>` +
    `<rect width="40" height="40" fill="#2a6"/><foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" ` +
    `src="/pwned/svg-iframe"/></foreignObject></svg>`,
  html:
    `<!doctype html><html><body><h1>Report</h1><script>window.PWNED='html';fetch('/pwned/html')</script>` +
    `<img src="x" onerror="fetch('/pwned/html-img')"></body></html>`,
  xml:
    `<?xml version="1.0"?><html ` +
    `xmlns="http://www.w3.org/1999/xhtml"><body><script>window.PWNED='xml';fetch('/pwned/xml')</script></body></html>`,
  /** An SVG the sanitiser refuses whole (a DOCTYPE): it cannot be kept as an image. */
  brokenSvg:
    `<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg" ` +
    `onload="fetch('/pwned/broken-svg')"><text>&x;</text></svg>`,
  /** HTML under a name that looks harmless. */
  disguised: `<html><body><script>window.PWNED='disguised';fetch('/pwned/disguised')</script></body></html>`,
  js: `window.PWNED='js';fetch('/pwned/js')`,
};

export async function hostileFiles(env: TestEnv, f: Awaited<ReturnType<typeof siteFixture>>) {
  const page = await newPage(env, f.owner, f.space.id, "Files", { parentPageId: f.start.id });
  const up = (bytes: string, name: string, type: string) => uploaded(env, f.owner, page.id, bytes, name, type);
  const svg = await up(HOSTILE.svg, "logo.svg", "image/svg+xml");
  const html = await up(HOSTILE.html, "report.html", "text/html");
  const xml = await up(HOSTILE.xml, "feed.xml", "application/xml");
  const broken = await up(HOSTILE.brokenSvg, "broken.svg", "image/svg+xml");
  const disguised = await up(HOSTILE.disguised, "table.csv", "text/csv");
  const js = await up(HOSTILE.js, "tool.js", "text/javascript");
  const block = (a: { id: string; filename: string; size: number; contentType: string }) => ({
    type: "attachment",
    attrs: { attachmentId: a.id, filename: a.filename, size: a.size, contentType: a.contentType },
  });
  await update(
    env,
    f.owner,
    page.id,
    docOf(
      para(text("The logo: ")),
      { type: "image", attrs: { src: `/api/attachments/${svg.id}/view`, alt: "logo" } },
      ...[svg, html, xml, broken, disguised, js].map(block),
      para(link("the report, linked", `/api/attachments/${html.id}/download`)),
    ),
  );
  return { page, svg, html, xml, broken, disguised, js };
}
