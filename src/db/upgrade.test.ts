import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../platform/db/migrate";
import { openSqlite } from "../platform/db/open";
import { migrations } from "./migrations.gen";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "cairn-upgrade-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const columns = (db: ReturnType<typeof openSqlite>, table: string) => db.query<{ name: string }, []>(`PRAGMA table_info(${table})`).all().map((c) => c.name);

test("0012 moves the large page columns last and keeps every row, the rows that refer to pages, and the search triggers", () => {
  const db = openSqlite(join(dir, "cairn.db"));
  const upTo = migrations.findIndex((m) => m.tag.startsWith("0012_"));
  migrate(db, migrations.slice(0, upTo), null, 0);
  const now = "2026-01-01T00:00:00.000Z";
  db.exec(`INSERT INTO roles (id, name, tier, permissions, created_at) VALUES ('r1', 'User', 0, '[]', '${now}')`);
  db.exec(`INSERT INTO users (id, email, display_name, password_hash, role_id, created_at, updated_at) VALUES ('u1', 'a@example.com', 'A', 'x', 'r1', '${now}', '${now}')`);
  db.exec(`INSERT INTO spaces (id, key, name, created_at, updated_at) VALUES ('s1', 'ENG', 'Eng', '${now}', '${now}')`);
  db.exec(`INSERT INTO pages (doc_id, id, space_id, parent_id, title, content_json, plain_text, current_version, status, created_at, updated_at) VALUES
    (7, 'p1', 's1', NULL, 'Root', '{"type":"doc"}', 'root text', 2, 1, '${now}', '${now}'),
    (8, 'p2', 's1', 'p1', 'Child', '{"type":"doc"}', 'child text', 1, 1, '${now}', '${now}')`);
  db.exec(`INSERT INTO page_versions (page_id, version_number, title, content_json, change_comment, author_id, created_at) VALUES ('p1', 1, 'Root', '{}', NULL, 'u1', '${now}'), ('p1', 2, 'Root', '{"type":"doc"}', 'second', 'u1', '${now}')`);
  db.exec(`INSERT INTO labels (id, name, created_at) VALUES ('l1', 'howto', '${now}')`);
  db.exec(`INSERT INTO page_labels (page_id, label_id, added_at) VALUES ('p2', 'l1', '${now}')`);
  db.exec("DELETE FROM search_dirty");

  expect(migrate(db, migrations, null, 0).applied.some((t) => t.startsWith("0012_"))).toBe(true);

  expect(columns(db, "pages").slice(-2)).toEqual(["content_json", "plain_text"]);
  expect(columns(db, "page_versions").at(-1)).toBe("content_json");
  expect(db.query("SELECT doc_id, id, parent_id, title, plain_text FROM pages ORDER BY doc_id").all()).toEqual([
    { doc_id: 7, id: "p1", parent_id: null, title: "Root", plain_text: "root text" },
    { doc_id: 8, id: "p2", parent_id: "p1", title: "Child", plain_text: "child text" },
  ]);
  expect(db.query("SELECT version_number, change_comment FROM page_versions ORDER BY version_number").all()).toEqual([
    { version_number: 1, change_comment: null },
    { version_number: 2, change_comment: "second" },
  ]);
  expect(db.query("SELECT page_id FROM page_labels").all()).toEqual([{ page_id: "p2" }]);
  // The foreign keys still lead to the rebuilt table: deleting a page cascades as before.
  db.exec("DELETE FROM pages WHERE id = 'p2'");
  expect(db.query("SELECT count(*) AS n FROM page_labels").get()).toEqual({ n: 0 });
  expect(db.query("SELECT doc_id FROM search_dirty").all()).toEqual([{ doc_id: 8 }]);
  db.exec("UPDATE pages SET title = 'Renamed' WHERE id = 'p1'");
  expect(db.query("SELECT doc_id FROM search_dirty ORDER BY doc_id").all()).toEqual([{ doc_id: 7 }, { doc_id: 8 }]);
  db.close();
});

test("0028 fills page_links from every page's links as the app reads them (content/page-links.ts)", async () => {
  const { linkedPageIds } = await import("../content/page-links");
  const db = openSqlite(join(dir, "cairn.db"));
  const upTo = migrations.findIndex((m) => m.tag.startsWith("0028_"));
  migrate(db, migrations.slice(0, upTo), null, 0);
  const now = "2026-01-01T00:00:00.000Z";
  const [a, b, c] = ["0190a6c8-0000-7000-8000-00000000000a", "0190a6c8-0000-7000-8000-00000000000b", "0190a6c8-0000-7000-8000-00000000000c"];
  const link = (href: string) => ({ type: "text", text: "x", marks: [{ type: "link", attrs: { href } }] });
  const docA = { type: "doc", content: [{ type: "paragraph", content: [
    link(`/s/ENG/p/${b}-install#setup`), link(`https://elsewhere.example/s/ENG/p/${c}`), link(`/p/${c.toUpperCase()}`), link(`/s/ENG/p/${b}/history/2`), link("/s/ENG"),
  ] }] };
  db.exec(`INSERT INTO spaces (id, key, name, created_at, updated_at) VALUES ('s1', 'ENG', 'Eng', '${now}', '${now}')`);
  const insert = db.prepare("INSERT INTO pages (id, space_id, title, content_json, plain_text, current_version, status, created_at, updated_at) VALUES (?, 's1', ?, ?, '', 1, 1, ?, ?)");
  insert.run(a, "A", JSON.stringify(docA), now, now);
  insert.run(b, "B", JSON.stringify({ type: "doc", content: [{ type: "paragraph" }] }), now, now);
  migrate(db, migrations, null, 0);
  const rows = db.query<{ s: string; t: string }, []>("SELECT source_page_id AS s, target_page_id AS t FROM page_links ORDER BY t").all();
  expect(rows).toEqual([{ s: a, t: b }, { s: a, t: c }]);
  // The same as the writer would have recorded.
  expect(linkedPageIds(docA).sort()).toEqual([b, c]);
});
