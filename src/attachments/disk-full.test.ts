/**
 * An upload to a server whose disk is full answers 503 service_unavailable, as a page write
 * whose COMMIT the disk refuses does, and leaves nothing behind. The data directory is a small
 * tmpfs made for the test (root only; skipped where mounting is not allowed).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE, call, makeEnv, signUp, type TestEnv } from "../../tests/harness";
import { newPage, newSpace } from "../pages/testing";

let mount: string | null = null;
let env: TestEnv | null = null;
beforeAll(() => {
  const at = mkdtempSync(join(tmpdir(), "cairn-full-"));
  if (Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", at]).exitCode !== 0) return;
  mount = at;
  mkdirSync(join(at, "data"));
  env = makeEnv({ dir: join(at, "data") });
});
afterAll(() => {
  env?.close();
  if (mount) Bun.spawnSync(["umount", "-l", mount]);
});

test("an upload that fills the disk is a 503 naming the disk, and no file or row is left", async () => {
  if (!env) return console.warn("skipped: this machine does not allow mounting a tmpfs");
  const owner = await signUp(env, "owner@example.com");
  const space = await newSpace(env, owner, "DOCS");
  const page = await newPage(env, owner, space.id, "Page");
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(8 * 1024 * 1024).fill(0x61)], { type: "application/octet-stream" }), "big.bin");
  const res = await env.handle(
    new Request(`${BASE}/api/pages/${page.id}/attachments`, {
      method: "POST",
      headers: { cookie: `cairn_session=${owner.cookie}`, "x-requested-with": "Cairn" },
      body: form,
    }),
  );
  expect(res.status).toBe(503);
  const body = await res.json();
  expect(body).toMatchObject({ code: "service_unavailable" });
  expect(body.detail).toContain("disk");
  expect((env.core.sqlite.query("select count(*) as n from attachments").get() as { n: number }).n).toBe(0);
  expect(readdirSync(join(env.dir, "tmp"))).toEqual([]);
  // The server goes on answering.
  expect((await call(env, "GET", "/api/health")).status).toBe(200);
});
