/**
 * The PDF printer against the real Chromium: prints queue two at a time and all finish (up to
 * a limit), a
 * print loads nothing from the network (a URL a page's author chose is never fetched by the
 * server), and a closed printer refuses with 503.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PdfPrinter } from "./pdf";

const HAS_CHROMIUM = existsSync("/usr/bin/chromium");
const printer = new PdfPrinter("/usr/bin/chromium");
afterAll(() => printer.close());

const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.slice(0, 5)) === "%PDF-";

describe.if(HAS_CHROMIUM)("PdfPrinter", () => {
  test("five prints at once all finish (two at a time, each in its own Chromium)", async () => {
    const pdfs = await Promise.all([1, 2, 3, 4, 5].map((n) => printer.print(`<!doctype html><h1>Print ${n}</h1>`)));
    for (const pdf of pdfs) expect(isPdf(pdf)).toBe(true);
  }, 60_000);

  test("past two printing and the waiting limit (20; 2 here), a print is refused at once with 503 and Retry-After", async () => {
    const small = new PdfPrinter("/usr/bin/chromium", 2);
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, n) => small.print(`<p>${n}</p>`))).finally(() => small.close());
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      status: 503,
      problemCode: "service_unavailable",
      extras: { headers: { "retry-after": "30" } },
    });
    expect(results.filter((r) => r.status === "fulfilled" && isPdf(r.value))).toHaveLength(4);
  }, 60_000);

  test("a print requests nothing: images, styles, frames and scripts of other hosts are never fetched", async () => {
    let hits = 0;
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (hits++, new Response("x")) });
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const pdf = await printer.print(
        `<!doctype html><link rel="stylesheet" href="${url}/a.css"><img src="${url}/b.png"><iframe ` +
          `src="${url}/c"></iframe><script src="${url}/d.js"></script><p style="background:url(${url}/e.png)">x</p>`,
      );
      expect(isPdf(pdf)).toBe(true);
      expect(hits).toBe(0);
    } finally {
      server.stop(true);
    }
  }, 60_000);
});

const HAS_PDFTOTEXT = existsSync("/usr/bin/pdftotext");

describe.if(HAS_CHROMIUM && HAS_PDFTOTEXT)("PdfPrinter and the server's own files", () => {
  test("a print shows no file of the server: file: frames, images, styles and redirects stay empty", async () => {
    const pdf = await printer.print(
      `<!doctype html><p>visible words</p><iframe src="file:///etc/passwd"></iframe><object ` +
        `data="file:///etc/passwd"></object><link rel="stylesheet" href="file:///etc/passwd"><img ` +
        `src="file:///etc/hostname"><META data-x="a>b" HTTP-EQUIV="refresh" content="0;url=file:///etc/passwd">`,
    );
    const dir = mkdtempSync(join(tmpdir(), "cairn-pdf-text-"));
    try {
      writeFileSync(join(dir, "p.pdf"), pdf);
      const text = Bun.spawnSync(["pdftotext", join(dir, "p.pdf"), "-"]).stdout.toString();
      expect(text).toContain("visible words");
      expect(text).not.toContain("root:");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("PdfPrinter without Chromium", () => {
  test("503 export_unavailable naming the path and how to install Chromium", async () => {
    const missing = new PdfPrinter("/nonexistent/chromium");
    const error = await missing.print("<p>x</p>").catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, problemCode: "export_unavailable" });
    expect(String((error as Error).message)).toContain("apt-get install -y chromium");
  });

  test("a printer closed at shutdown refuses", async () => {
    const closed = new PdfPrinter("/usr/bin/chromium");
    await closed.close();
    expect(await closed.print("<p>x</p>").catch((e: { problemCode?: string }) => e.problemCode)).toBe("export_unavailable");
  });
});
