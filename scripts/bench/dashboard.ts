/**
 * How long GET /api/admin/dashboard takes on a big instance (docs/decisions.md, "The dashboard"):
 * 11,000 pages seeded through the services (scripts/bench/seed-pages.ts), every one with three more
 * versions, 90 days of page views over 3,000 pages (270,000 day rows), then a fresh process-like
 * open of the data directory and the first (uncached) call of each range, as the owner, in-process.
 *
 *   bun scripts/bench/dashboard.ts [pages=10000] [--keep]    seeds a new data directory
 *   bun scripts/bench/dashboard.ts --reuse DIR                 measures one kept before
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp, durableHandler } from "../../src/http/app";
import { openInstance } from "../../src/instance";
import { loadConfig } from "../../src/platform/config";
import { silentLogger } from "../../src/platform/log";
import { OWNER } from "./seed";
import { preSeed } from "./seed-pages";

const reuse = process.argv.indexOf("--reuse");
const pages = Number(process.argv[2] ?? 10_000);
const dir = reuse > 0 ? process.argv[reuse + 1]! : mkdtempSync(join(tmpdir(), "cairn-dashboard-bench-"));
console.log("data directory:", dir);
const DAY = 86_400_000;
try {
  if (reuse < 0) {
    const seeded = await preSeed(dir, pages, (line) => console.log(line));
    const core = openInstance(loadConfig(["--data", dir], {}), { log: silentLogger });
    const owner = core.sqlite.query("SELECT id FROM users LIMIT 1").get() as { id: string };
    const ids = [...seeded.big.pageIds, ...seeded.tree.pageIds];
    const now = Date.now();
    core.sqlite.run("BEGIN");
    const version = core.sqlite.query(
      "INSERT INTO page_versions (page_id, version_number, title, change_comment, author_id, " +
        "created_at, content_json) VALUES (?, ?, 'v', NULL, ?, ?, '{}')",
    );
    for (const [i, id] of ids.entries())
      for (let v = 2; v <= 4; v++) version.run(id, v, owner.id, new Date(now - ((i + v) % 120) * DAY).toISOString());
    const view = core.sqlite.query("INSERT INTO page_views_daily (day, page_id, views) VALUES (?, ?, ?)");
    for (let d = 0; d < 90; d++)
      for (let p = 0; p < 3000; p++)
        view.run(new Date(now - d * DAY).toISOString().slice(0, 10), ids[(p * 7 + d) % ids.length], 1 + ((p * d) % 13));
    core.sqlite.run("COMMIT");
    core.close();
  }
  const core = openInstance(loadConfig(["--data", dir], {}), { log: silentLogger });
  const handle = durableHandler(core, createApp(core));
  const login = await handle(
    new Request("http://bench/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", "x-requested-with": "Cairn" },
      body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
    }),
  );
  const cookie = /cairn_session=[^;]*/.exec(login.headers.get("set-cookie") ?? "")![0];
  const counts = core.sqlite
    .query(
      "SELECT (SELECT count(*) FROM pages) AS pages, (SELECT count(*) FROM page_versions) AS " +
        "versions, (SELECT count(*) FROM page_views_daily) AS viewRows",
    )
    .get();
  console.log("instance:", counts);
  for (const range of [90, 30, 7, 90, 30, 7]) {
    const t0 = performance.now();
    const res = await handle(new Request(`http://bench/api/admin/dashboard?rangeDays=${range}`, { headers: { cookie } }));
    const body = (await res.json()) as { usage: { totalViews: number; topPages: unknown[] } };
    console.log(
      `rangeDays=${range}: ${res.status} in ${(performance.now() - t0).toFixed(1)} ms (views ` +
        `${body.usage.totalViews}, top pages ${body.usage.topPages.length})`,
    );
  }
  core.close();
} finally {
  if (!process.argv.includes("--keep") && reuse < 0) rmSync(dir, { recursive: true, force: true });
}
