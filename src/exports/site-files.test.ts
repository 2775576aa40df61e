/**
 * The static site carries no script but its own: uploaded SVG is written sanitised, HTML and
 * every other type outside the allow-list under a `.txt` name (its link downloading it under
 * its own name), and every page holds a Content-Security-Policy. The browser side (a static host
 * serving the site, nothing run) is tests/e2e/site-export-script.browser.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { makeEnv, type TestEnv } from "../../tests/harness";
import { SITE_CSP } from "./site-layout";
import { siteFile, SVG_SANITISE_MAX } from "./site-files";
import { HOSTILE, hostileFiles, siteExport, siteFixture } from "./site-testing";

let env: TestEnv;
beforeEach(() => {
  env = makeEnv();
});
afterEach(() => env.close());

const sha256 = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
const never = () => Promise.reject(new Error("only an SVG is read"));
const blobOf = (text: string) => () => Promise.resolve(new Blob([text]));

describe("which files keep their name", () => {
  test.each([
    ["photo.png", "image/png", "photo.png"],
    ["Photo.JPEG", "image/jpeg", "Photo.JPEG"],
    ["manual.pdf", "application/pdf", "manual.pdf"],
    ["data.csv", "text/plain", "data.csv"],
    ["notes.txt", "text/plain", "notes.txt"],
    ["slides.pptx", "application/zip", "slides.pptx"],
    ["clip.mp4", "application/octet-stream", "clip.mp4"],
    ["report.html", "text/html", "report.html.txt"],
    ["report.HTM", "text/html", "report.HTM.txt"],
    ["page.xhtml", "application/xml", "page.xhtml.txt"],
    ["feed.xml", "application/xml", "feed.xml.txt"],
    ["tool.js", "text/plain", "tool.js.txt"],
    ["style.css", "text/plain", "style.css.txt"],
    ["data.json", "text/plain", "data.json.txt"],
    ["readme.md", "text/plain", "readme.md.txt"],
    ["Makefile", "text/plain", "Makefile.txt"],
    ["setup.exe", "application/octet-stream", "setup.exe.txt"],
    // Markup under a harmless name: a host guessing from the content would render it.
    ["table.csv", "text/html", "table.csv.txt"],
    ["photo.png", "text/html", "photo.png.txt"],
    ["drawing.png", "image/svg+xml", "drawing.png.txt"],
  ])("%s (%s) is written as %s", async (name, type, written) => {
    const file = await siteFile(name, type, never);
    expect(file.name).toBe(written);
    expect(file.download).toBe(written === name ? null : name);
    expect(file.sanitise).toBe(false);
  });

  test("an SVG the sanitiser takes keeps its name; one it refuses, too large or not UTF-8 is renamed", async () => {
    expect(await siteFile("logo.svg", "image/svg+xml", blobOf(HOSTILE.svg))).toEqual({ name: "logo.svg", download: null, sanitise: true });
    expect(await siteFile("broken.svg", "image/svg+xml", blobOf(HOSTILE.brokenSvg))).toEqual({
      name: "broken.svg.txt",
      download: "broken.svg",
      sanitise: false,
    });
    const huge = `<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(SVG_SANITISE_MAX / 4)}</svg>`;
    expect((await siteFile("huge.svg", "image/svg+xml", blobOf(huge))).name).toBe("huge.svg.txt");
    const latin1 = () =>
      Promise.resolve(
        new Blob([
          Uint8Array.from([...Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><text>'), 0xe9, ...Buffer.from("</text></svg>")]),
        ]),
      );
    expect((await siteFile("latin.svg", "image/svg+xml", latin1)).name).toBe("latin.svg.txt");
    expect((await siteFile("gone.svg", "image/svg+xml", () => Promise.resolve(null))).name).toBe("gone.svg.txt");
  });
});

describe("the exported site", () => {
  test("SVG sanitised, HTML/XML/JS and markup in disguise renamed .txt with their bytes, links download them by name", async () => {
    const f = await siteFixture(env);
    const h = await hostileFiles(env, f);
    const site = await siteExport(env, f.owner, "DOCS");
    expect(site.res.status).toBe(200);
    const files = [...site.files.keys()].filter((p) => p.startsWith("_files/"));
    // Nothing a host would serve as a page or a script.
    expect(files.filter((p) => /\.(html?|xhtml|xml|js|mjs)$/i.test(p))).toEqual([]);

    const svg = site.textOf(`_files/${sha256(HOSTILE.svg)}/logo.svg`);
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg).toContain('<rect width="40" height="40" fill="#2a6"/>');
    for (const gone of ["script", "onload", "PWNED", "pwned", "foreignObject", "iframe"]) expect(svg).not.toContain(gone);

    for (const [bytes, name] of [
      [HOSTILE.html, "report.html"],
      [HOSTILE.xml, "feed.xml"],
      [HOSTILE.brokenSvg, "broken.svg"],
      [HOSTILE.disguised, "table.csv"],
      [HOSTILE.js, "tool.js"],
    ] as const) {
      expect(site.textOf(`_files/${sha256(bytes)}/${name}.txt`)).toBe(bytes);
      expect(site.files.has(`_files/${sha256(bytes)}/${name}`)).toBe(false);
    }

    const page = site.textOf("getting-started/files/index.html");
    expect(page).toContain(`<img src="../../_files/${sha256(HOSTILE.svg)}/logo.svg" alt="logo"`);
    expect(page).toContain(`<a href="../../_files/${sha256(HOSTILE.html)}/report.html.txt" download="report.html">report.html</a>`);
    expect(page).toContain(`<a href="../../_files/${sha256(HOSTILE.js)}/tool.js.txt" download="tool.js">tool.js</a>`);
    expect(page).toContain(`<a href="../../_files/${sha256(HOSTILE.svg)}/logo.svg">logo.svg</a>`);
    // A link mark to the file leads to the renamed file too.
    expect(page).toContain(`href="../../_files/${sha256(HOSTILE.html)}/report.html.txt"`);
    expect(page).not.toMatch(/_files\/[0-9a-f]{64}\/[^"]*\.(html|xml|js)"/);
    expect(h.html.contentType).toBe("text/html");
  });

  test("every page carries the CSP meta: script only from the site's files, no inline script, no objects", async () => {
    const f = await siteFixture(env);
    await hostileFiles(env, f);
    const site = await siteExport(env, f.owner, "DOCS");
    const pages = [...site.files.keys()].filter((p) => p.endsWith(".html"));
    expect(pages.length).toBeGreaterThan(5);
    for (const path of pages) {
      const html = site.textOf(path);
      expect(html).toContain(`<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${SITE_CSP}">`);
      // Every script of the page is a file of the site; none is inline.
      for (const m of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
        expect(m[1]).toMatch(/^ src="(\.\.\/)*_site\/(tree|site)\.js"$/);
        expect(m[2]).toBe("");
      }
    }
    const directives = new Map(
      SITE_CSP.split(";")
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k!, v]),
    );
    expect(directives.get("default-src")).toEqual(["'none'"]);
    expect(directives.get("script-src")).toEqual(["'self'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(directives.get("img-src")).toEqual(["'self'", "data:"]);
    expect(directives.get("base-uri")).toEqual(["'none'"]);
  });
});
