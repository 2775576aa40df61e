/**
 * A Confluence page built to exhaust memory (docs/decisions.md, "A Confluence page is bounded while
 * it is read"): a ~14 MB zip whose one page holds 1.8 million paragraphs was parsed and converted
 * in full (server RSS 104 MB → 2.6 GB) before the 2 MB page check refused it. On a real server
 * process, with RSS read from /proc: the import is refused early, naming the page and the limit;
 * memory grows by less than 150 MB; the server lives; nothing is written (no space, no blob, no
 * temporary file).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { peakRssDuring } from "../../../tests/rss";
import { startInScratch, stopAndRemove, type ServerProcess } from "../../../tests/server-process";
import { PASSWORD } from "../../../tests/harness";
import { zipBytes } from "../../platform/zip/write";
import { confluenceExport, type FixturePage } from "./testing";

setDefaultTimeout(120_000);

let dir: string;
let server: ServerProcess;
let cookie: string;

beforeAll(async () => {
  ({ dir, server } = await startInScratch("cairn-confluence-bound-"));
  const res = await fetch(`${server.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
    body: JSON.stringify({ email: "owner@example.com", displayName: "Ada", password: PASSWORD }),
  });
  expect(res.status).toBe(201);
  cookie = /cairn_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")![1];
});
afterAll(async () => {
  await stopAndRemove(server, dir);
});

/** An export of one page whose body is `paragraphs` one-letter paragraphs, stored (not deflated) as the probe sent it. */
function floodExport(paragraphs: number): Promise<Uint8Array> {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const parts: string[] = [];
  for (let i = 0; i < paragraphs; i++) parts.push(`<p>${letters[i % 26]}</p>`);
  const page: FixturePage = { file: "Flood_1.html", title: "Flood", ancestors: [], body: parts.join("") };
  return zipBytes(async (zip) => {
    for (const [path, data] of Object.entries(confluenceExport("Flood", "FLOOD", [page]))) await zip.add(path, data, { store: true });
  });
}

async function importArchive(bytes: Uint8Array) {
  const form = new FormData();
  form.append("key", "FLOOD");
  form.append("file", new File([bytes as BlobPart], "flood.zip", { type: "application/zip" }));
  const res = await fetch(`${server.url}/api/spaces/import`, {
    method: "POST",
    headers: { cookie: `cairn_session=${cookie}`, "x-requested-with": "Cairn" },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function nothingWritten() {
  expect(server.proc.exitCode).toBeNull();
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  const spaces = await fetch(`${server.url}/api/spaces`, { headers: { cookie: `cairn_session=${cookie}` } });
  expect(JSON.stringify(await spaces.json())).not.toContain("FLOOD");
  expect(readdirSync(join(dir, "data", "tmp")).filter((f) => f.startsWith("import-"))).toEqual([]);
}

describe("a Confluence page too large to hold is refused before it is converted", () => {
  test("1.8 million paragraphs in a ~14 MB zip: 400 naming the page and the limit, RSS +<150 MB, nothing written", async () => {
    const zip = await floodExport(1_800_000);
    expect(zip.byteLength).toBeGreaterThan(14_000_000);
    const { result, before, peak } = await peakRssDuring(server.proc.pid, () => importArchive(zip));
    console.log(`confluence flood (${(zip.byteLength / 1e6).toFixed(1)} MB zip): RSS ${before.toFixed(0)} → ${peak.toFixed(0)} MB`);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: "import_refused", field: "file" });
    expect(result.body.detail).toMatch(/^FLOOD\/Flood_1\.html: .*at most 8 MB/);
    expect(peak - before).toBeLessThan(150);
    await nothingWritten();
  });

  test("under the size limit but past the node limit (a million paragraphs in 8 MB): refused naming the limit, RSS +<150 MB", async () => {
    const zip = await floodExport(950_000);
    const { result, before, peak } = await peakRssDuring(server.proc.pid, () => importArchive(zip));
    console.log(`confluence flood (${(zip.byteLength / 1e6).toFixed(1)} MB zip): RSS ${before.toFixed(0)} → ${peak.toFixed(0)} MB`);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: "import_refused", field: "file" });
    expect(result.body.detail).toMatch(/^FLOOD\/Flood_1\.html: .*elements and pieces of text \(at most 150,000\)/);
    expect(peak - before).toBeLessThan(150);
    await nothingWritten();
  });
});
