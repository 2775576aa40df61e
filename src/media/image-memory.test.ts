/**
 * Decoding is where an image costs memory: a PNG of flat colour compresses about 1,000 to 1, so
 * a 150 KB upload can declare 6000 × 6000 pixels and take 144 MB (and more, in the codec's own
 * memory) once decoded. On a real server process, eight such uploads at once must leave its
 * resident memory within 150 MB of where it started, refuse each (naming the field and the
 * image's size), store nothing, and leave the server answering.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { flatPng, pngPicture } from "../../tests/image-fixtures";
import { makeEnv, PASSWORD, signUp } from "../../tests/harness";
import { peakRssDuring, rssMb } from "../../tests/rss";
import { startServerProcess, type ServerProcess } from "../../tests/server-process";

let dir: string;
let server: ServerProcess;
let cookie: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cairn-image-memory-"));
  const env = makeEnv({ dir });
  await signUp(env, "owner@example.com");
  env.close();
  server = await startServerProcess(dir);
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
    body: JSON.stringify({ email: "owner@example.com", password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  cookie = /cairn_session=[^;]+/.exec(login.headers.get("set-cookie") ?? "")![0];
});
afterAll(async () => {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  rmSync(dir, { recursive: true, force: true });
});

function uploadAvatar(bytes: Uint8Array) {
  const form = new FormData();
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "image/png" }), "picture.png");
  return fetch(`${server.url}/api/media/avatars/me`, { method: "PUT", headers: { cookie, "x-requested-with": "Cairn" }, body: form });
}

const blobCount = () => {
  try {
    return readdirSync(join(dir, "blobs"), { recursive: true }).length;
  } catch {
    return 0;
  }
};

test("eight 6000 × 6000 PNGs at once: refused from the header, RSS growth under 150 MB, nothing stored, the server alive", async () => {
  const bomb = flatPng(6000, 6000);
  expect(bomb.byteLength).toBeLessThan(200 * 1024);
  // One small upload first, so the codecs are loaded and the figure is the attack's alone.
  expect((await uploadAvatar(await pngPicture(64, 64))).status).toBe(200);
  await Bun.sleep(200);
  const blobsBefore = blobCount();

  const { result, before, peak } = await peakRssDuring(server.proc.pid, () =>
    Promise.all(Array.from({ length: 8 }, () => uploadAvatar(bomb))),
  );
  const answers = await Promise.all(result.map(async (r) => ({ status: r.status, body: await r.json() })));
  console.log(`image bomb: RSS ${before.toFixed(0)} MB → peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB)`);
  for (const a of answers) {
    expect(a.status).toBe(415);
    expect(a.body).toMatchObject({ code: "unsupported_media_type", field: "file", width: 6000, height: 6000 });
    expect(a.body.detail).toContain("6000 × 6000 pixels (36,000,000, 137.3 MB once decoded)");
  }
  expect(peak - before).toBeLessThan(150);
  expect(blobCount()).toBe(blobsBefore);
  expect(server.proc.exitCode).toBeNull();
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  expect(rssMb(server.proc.pid)).toBeGreaterThan(0);
}, 60_000);

test("three uploads at the budget (3547 × 3547, 48 MB decoded) at once: decoded one at a time, RSS growth under 150 MB", async () => {
  const big = flatPng(3547, 3547);
  const { result, before, peak } = await peakRssDuring(server.proc.pid, () =>
    Promise.all(Array.from({ length: 3 }, () => uploadAvatar(big))),
  );
  console.log(`at the budget: RSS ${before.toFixed(0)} MB → peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB)`);
  expect(result.map((r) => r.status)).toEqual(Array(3).fill(200));
  expect(peak - before).toBeLessThan(150);
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
}, 60_000);
