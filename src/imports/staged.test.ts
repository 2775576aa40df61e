/**
 * Staged imports: the space is written in slices while nobody (its importer included) can see
 * it, made visible at the end; a refusal midway, a failure or a crash leaves nothing.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { call, makeEnv, ownerAndMember, type TestEnv, type Who } from "../../tests/harness";
import { startServerProcess } from "../../tests/server-process";
import { openZip } from "../platform/zip/read";
import { convert } from "./detect";
import type { ImportedSpace } from "./model";
import { removeLeftoverStages, writingStaged } from "./staged";
import { footprint, handPack, importZip, paragraphDoc, sha256Of, type HandPage } from "./testing";
import { writeStaged } from "./write-space";
import type { ImportPlan } from "./plan";

let env: TestEnv;
let owner: Who & { id: string };
let member: Who & { id: string };
beforeEach(async () => {
  env = makeEnv();
  ({ owner, member } = await ownerAndMember(env));
});
afterEach(() => env.close());

const FILE = new TextEncoder().encode("the bytes of a file only the import brings");
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** `n` pages: a tree (every tenth page a root), the first linking to the last, files and comments on some. */
function pagesOf(n: number, extra: (i: number) => Partial<HandPage> = () => ({})): HandPage[] {
  const id = (i: number) => `00000000-0000-7000-8000-${String(i).padStart(12, "0")}`;
  return Array.from({ length: n }, (_, i) => ({
    id: id(i),
    parent: i % 10 === 0 ? null : id(i - (i % 10)),
    title: `Stagedword page ${i}`,
    content:
      i === 0
        ? { type: "doc", content: [{ type: "paragraph", content: [{ type: "pageLink", attrs: { pageId: id(n - 1) } }] }] }
        : paragraphDoc(`Stagedword text ${i}`),
    labels: i % 50 === 0 ? ["staged-label"] : [],
    attachments: i % 100 === 1 ? [{ id: `a${i}`, filename: `f${i}.txt`, sha256: sha256Of(FILE) }] : [],
    comments: i % 70 === 2 ? [{ id: `c${i}`, body: `A comment on ${i}`, author: "a1" }] : [],
    ...extra(i),
  }));
}

const packOfPages = (pages: HandPage[], key = "STAGE") => handPack(pages, { key, blobs: { [sha256Of(FILE)]: FILE } });

/** The pack converted as the server converts it (without the HTTP upload). */
async function converted(bytes: Uint8Array): Promise<{ imported: ImportedSpace; done: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-staged-"));
  await Bun.write(join(dir, "pack.zip"), bytes);
  const imported = await convert(await openZip(join(dir, "pack.zip")), "cairn-pack", () => {});
  return { imported, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const planning = (key: string) => ({ key, name: "Staged", ownerId: owner.id, creditAccounts: true, now: env.clock.now() });

/** Everything a person could use to find the space or its pages, as `who` sees it. */
async function seenBy(who: Who, key: string, pageId: string) {
  const spaces = await call(env, "GET", "/api/spaces", { as: who });
  const search = await call(env, "GET", "/api/search?q=stagedword", { as: who });
  return {
    listed: (spaces.body as { key: string }[]).some((s) => s.key === key),
    space: (await call(env, "GET", `/api/spaces/${key}`, { as: who })).status,
    tree: (await call(env, "GET", `/api/pages/tree?spaceId=${key}`, { as: who })).status,
    page: (await call(env, "GET", `/api/pages/${pageId}`, { as: who })).status,
    pack: (await call(env, "GET", `/api/spaces/${key}/export/pack`, { as: who })).status,
    found: JSON.stringify(search.body).includes("Stagedword"),
  };
}

const HIDDEN = { listed: false, space: 404, tree: 404, page: 404, pack: 404, found: false };

describe("a staged import", () => {
  test("is invisible while it is written, to its importer too, and whole once visible", async () => {
    const { imported, done } = await converted(await packOfPages(pagesOf(250)));
    const seen: unknown[] = [];
    const slices: number[] = [];
    let firstPage = "";
    try {
      const { plan, row } = await writeStaged(
        env.core,
        imported,
        planning("STAGE"),
        { id: owner.id, ip: null },
        {
          slicePages: 100,
          afterSlice: async (slice: ImportPlan) => {
            slices.push(slice.pages.length);
            firstPage ||= slice.pages[0].id!;
            if (slices.length !== 2) return;
            // 200 pages are rows now; nobody may see them.
            expect(
              (env.core.sqlite.query("SELECT count(*) AS n FROM pages WHERE space_id = ?").get(slice.spaceId) as { n: number }).n,
            ).toBe(200);
            seen.push(await seenBy(owner, "STAGE", firstPage), await seenBy(member, "STAGE", firstPage));
            const admin = await call(env, "GET", "/api/admin/spaces", { as: owner });
            expect((admin.body as { key: string }[]).map((s) => s.key)).not.toContain("STAGE");
            expect((await call(env, "POST", "/api/admin/spaces/STAGE/recover-access", { as: owner })).status).toBe(404);
            const dashboard = await call(env, "GET", "/api/admin/dashboard", { as: owner });
            expect(dashboard.body.content).toMatchObject({ spaces: 0, pages: 0, versions: 0, attachments: 0 });
            // The key is taken, as any space's is (POST /api/spaces already says so to anyone).
            expect((await call(env, "POST", "/api/spaces", { as: member, body: { key: "STAGE", name: "Mine" } })).status).toBe(409);
          },
        },
      );
      expect(slices).toEqual([100, 100, 50]);
      expect(plan.counts).toMatchObject({ pages: 250, versions: 250, attachments: 3, comments: 4, labels: 1 });
      expect(row.stagedAt).toBeNull();
    } finally {
      done();
    }
    expect(seen).toEqual([HIDDEN, HIDDEN]);
    // Visible at once, whole: the importer sees all of it, the member still nothing (no grant).
    const shown = await seenBy(owner, "STAGE", firstPage);
    expect(shown).toEqual({ listed: true, space: 200, tree: 200, page: 200, pack: 200, found: true });
    expect(await seenBy(member, "STAGE", firstPage)).toEqual(HIDDEN);
    const tree = await call(env, "GET", "/api/pages/tree?spaceId=STAGE", { as: owner });
    expect(tree.body).toHaveLength(25);
    // The link on the first page points at the last, written two slices later.
    const lastPage = tree.body.at(-1).children.at(-1).id as string;
    const backlinks = await call(env, "GET", `/api/pages/${lastPage}/backlinks`, { as: owner });
    expect(backlinks.body.map((p: { id: string }) => p.id)).toEqual([firstPage]);
    const dashboard = await call(env, "GET", "/api/admin/dashboard", { as: owner });
    expect(dashboard.body.content).toMatchObject({ spaces: 1, pages: 250, versions: 250, attachments: 3 });
    const events = env.core.sqlite.query("SELECT type FROM events WHERE target_id = (SELECT id FROM spaces WHERE key = 'STAGE')").all() as {
      type: string;
    }[];
    expect(events.map((e) => e.type)).toEqual(["space.imported"]);
  }, 30_000);

  test("refused on page 450 of 450, after four slices were written: nothing is left, no file, no label", async () => {
    const before = footprint(env);
    const pages = pagesOf(450, (i) => (i === 449 ? { content: { type: "doc", content: [{ type: "blink" }] } } : {}));
    const res = await importZip(env, owner, await packOfPages(pages));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("import_refused");
    expect(res.body.detail).toMatch(/pages\/00449\.json/);
    await settle();
    expect(footprint(env)).toEqual(before);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM events WHERE type = 'space.imported'").get()).toEqual({ n: 0 });
    // The key is free again, and the same archive without the fault goes in.
    const good = await importZip(env, owner, await packOfPages(pagesOf(450)));
    expect(good.status).toBe(201);
    expect(good.body.counts.pages).toBe(450);
  }, 30_000);

  test("a pack's documents are read from the archive as the plan reaches each page, never all at once", async () => {
    const { imported, done } = await converted(await packOfPages(pagesOf(300)));
    try {
      // Read, the pack holds each page's place and refs, none of its documents.
      expect(imported.pages.every((p) => p.versions.length === 0 && p.readVersions)).toBe(true);
      const documentsHeld: number[] = [];
      const { plan } = await writeStaged(
        env.core,
        imported,
        planning("LAZY"),
        { id: owner.id, ip: null },
        {
          slicePages: 100,
          afterSlice: async () => {
            documentsHeld.push(imported.pages.filter((p) => p.versions.length > 0).length);
          },
        },
      );
      expect(plan.counts.pages).toBe(300);
      // A page's documents are let go once planned: at most one read-ahead (8 pages) is held.
      expect(documentsHeld.length).toBeGreaterThanOrEqual(3);
      for (const held of documentsHeld) expect(held).toBeLessThanOrEqual(8);
      // Every page was read: its documents are in the space.
      expect(
        env.core.sqlite
          .query(
            "SELECT count(*) AS n FROM page_versions v JOIN pages p ON p.id = v.page_id " +
              "JOIN spaces s ON s.id = p.space_id WHERE s.key = 'LAZY'",
          )
          .get(),
      ).toEqual({ n: 300 });
    } finally {
      done();
    }
  }, 30_000);

  test("each slice is committed before the plan goes on, and pages ending on a slice's bound leave no empty transaction", async () => {
    const { imported, done } = await converted(await packOfPages(pagesOf(200)));
    const slices: { pages: number; pending: boolean; committed: number }[] = [];
    try {
      const { plan } = await writeStaged(
        env.core,
        imported,
        planning("BOUND"),
        { id: owner.id, ip: null },
        {
          slicePages: 100,
          afterSlice: async (slice) => {
            // Read on another connection: only what is committed.
            const other = new Database(join(env.dir, "cairn.db"), { readonly: true });
            try {
              const committed = (other.query("SELECT count(*) AS n FROM pages WHERE space_id = ?").get(slice.spaceId) as { n: number }).n;
              slices.push({ pages: slice.pages.length, pending: env.core.commits.pending(), committed });
            } finally {
              other.close();
            }
          },
        },
      );
      expect(plan.counts.pages).toBe(200);
    } finally {
      done();
    }
    expect(slices).toEqual([
      { pages: 100, pending: false, committed: 100 },
      { pages: 100, pending: false, committed: 200 },
    ]);
  }, 30_000);

  test("slices commit without an fsync of their own (synchronous NORMAL); the " +
    "publishing commit, and any other write meanwhile, with one (FULL)", async () => {
    const { imported, done } = await converted(await packOfPages(pagesOf(200)));
    const level = () => (env.core.sqlite.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;
    // Each transaction's level as it ends (before COMMIT): 1 NORMAL, 2 FULL.
    const levels: number[] = [];
    env.core.beforeCommit(() => levels.push(level()));
    const edits: number[] = [];
    try {
      await writeStaged(
        env.core,
        imported,
        planning("SYNCS"),
        { id: owner.id, ip: null },
        {
          slicePages: 50,
          afterSlice: async () => {
            // A person's write between slices: synced, in a group of its own.
            const res = await call(env, "PUT", "/api/auth/me", { as: owner, body: { displayName: `Owner ${edits.length}` } });
            edits.push(res.status);
          },
        },
      );
    } finally {
      done();
    }
    expect(edits).toEqual([200, 200, 200, 200]);
    // The staged space's row and the four slices (and the search index's catch-up, unsynced too);
    // a person's write never shares their group (platform/db/transactions.test.ts).
    expect(levels.filter((l) => l === 1).length).toBeGreaterThanOrEqual(5);
    expect(levels.at(-1)).toBe(2);
    expect(level()).toBe(2);
  }, 30_000);

  test("a failure inside a slice's transaction removes the slices before it", async () => {
    const { imported, done } = await converted(await packOfPages(pagesOf(250)));
    const before = footprint(env);
    let slices = 0;
    try {
      const writing = writeStaged(
        env.core,
        imported,
        planning("BROKEN"),
        { id: owner.id, ip: null },
        {
          afterSlice: async () => {
            if (++slices === 1) throw new Error("the disk is full");
          },
        },
      );
      await expect(writing).rejects.toThrow("the disk is full");
    } finally {
      done();
    }
    await settle();
    expect(footprint(env)).toEqual(before);
  });

  test("a staged space a crash left is removed at start; one being written is not", async () => {
    // What a process killed midway leaves: the staged row and 450 pages with their versions.
    const crashedSpace = "20000000-0000-7000-8000-000000000001";
    const now = new Date(env.clock.now()).toISOString();
    env.core.sqlite.run("INSERT INTO spaces (id, key, name, staged_at, created_at, updated_at) VALUES (?, 'CRASH', 'Crashed', ?, ?, ?)", [
      crashedSpace,
      now,
      now,
      now,
    ]);
    for (let i = 0; i < 450; i++) {
      const pageId = `10000000-0000-7000-8000-${String(i).padStart(12, "0")}`;
      env.core.sqlite.run(
        "INSERT INTO pages (id, space_id, parent_id, title, current_version, position, status, created_at, " +
          "updated_at, content_json, plain_text) VALUES (?, ?, ?, 'Left', 1, 0, 1, ?, ?, '{}', 'left')",
        [pageId, crashedSpace, i % 10 ? `10000000-0000-7000-8000-${String(i - (i % 10)).padStart(12, "0")}` : null, now, now],
      );
      env.core.sqlite.run(
        "INSERT INTO page_versions (page_id, version_number, title, created_at, content_json) VALUES (?, 1, 'Left', ?, '{}')",
        [pageId, now],
      );
    }
    // Another import is writing its own staged space right now: left alone.
    const { imported: other, done: otherDone } = await converted(await packOfPages(pagesOf(30), "BUSY"));
    let removedWhileBusy = -1;
    try {
      const busy = await writeStaged(
        env.core,
        other,
        planning("BUSY"),
        { id: owner.id, ip: null },
        {
          afterSlice: async () => {
            removedWhileBusy = await removeLeftoverStages(env.core);
          },
        },
      );
      expect(busy.row.key).toBe("BUSY");
    } finally {
      otherDone();
    }
    expect(removedWhileBusy).toBe(1);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM pages WHERE space_id = ?").get(crashedSpace)).toEqual({ n: 0 });
    expect(env.core.sqlite.query("SELECT key FROM spaces WHERE staged_at IS NOT NULL").all()).toEqual([]);
    expect((await call(env, "GET", "/api/spaces/BUSY", { as: owner })).status).toBe(200);
  }, 30_000);

  test("a staged space marked as being written survives a sweep until its writer is done", async () => {
    const now = new Date(env.clock.now()).toISOString();
    env.core.sqlite.run("INSERT INTO spaces (id, key, name, staged_at, created_at, updated_at) VALUES ('s-1', 'HELD', 'Held', ?, ?, ?)", [
      now,
      now,
      now,
    ]);
    const done = writingStaged("s-1");
    expect(await removeLeftoverStages(env.core)).toBe(0);
    done();
    expect(await removeLeftoverStages(env.core)).toBe(1);
    expect(env.core.sqlite.query("SELECT count(*) AS n FROM spaces WHERE key = 'HELD'").get()).toEqual({ n: 0 });
  });

  test("a server starting on a data directory with one removes it just after listening", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-staged-start-"));
    try {
      const crashed = makeEnv({ dir });
      const now = new Date().toISOString();
      crashed.core.sqlite.run(
        "INSERT INTO spaces (id, key, name, staged_at, created_at, updated_at) VALUES ('s-crash', 'LEFT', 'Left', ?, ?, ?)",
        [now, now, now],
      );
      crashed.core.sqlite.run(
        "INSERT INTO pages (id, space_id, title, current_version, position, status, created_at, updated_at, " +
          "content_json, plain_text) VALUES ('p-crash', 's-crash', 'Left', 1, 0, 1, ?, ?, '{}', 'left')",
        [now, now],
      );
      crashed.close();
      const server = await startServerProcess(dir);
      try {
        for (let i = 0; i < 100; i++) {
          const db = new Database(join(dir, "cairn.db"), { readonly: true });
          const left = db.query("SELECT count(*) AS n FROM spaces WHERE key = 'LEFT'").get() as { n: number };
          db.close();
          if (left.n === 0) break;
          await Bun.sleep(100);
        }
      } finally {
        server.proc.kill("SIGTERM");
        await server.proc.exited;
      }
      expect(await server.output()).toContain("removed an unfinished import");
      const db = new Database(join(dir, "cairn.db"), { readonly: true });
      expect(
        db
          .query(
            "SELECT (SELECT count(*) FROM spaces WHERE key = 'LEFT') AS spaces, (SELECT count(*) FROM pages WHERE id = 'p-crash') AS pages",
          )
          .get(),
      ).toEqual({ spaces: 0, pages: 0 });
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
