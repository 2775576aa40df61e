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

const columns = (db: ReturnType<typeof openSqlite>, table: string) =>
  db
    .query<{ name: string }, []>(`PRAGMA table_info(${table})`)
    .all()
    .map((c) => c.name);

test("0012 moves the large page columns last and keeps every row, the rows that refer to pages, and the search triggers", () => {
  const db = openSqlite(join(dir, "cairn.db"));
  const upTo = migrations.findIndex((m) => m.tag.startsWith("0012_"));
  migrate(db, migrations.slice(0, upTo), null, 0);
  const now = "2026-01-01T00:00:00.000Z";
  db.exec(`INSERT INTO roles (id, name, tier, permissions, created_at) VALUES ('r1', 'User', 0, '[]', '${now}')`);
  db.exec(
    `INSERT INTO users (id, email, display_name, password_hash, role_id, created_at, ` +
      `updated_at) VALUES ('u1', 'a@example.com', 'A', 'x', 'r1', '${now}', '${now}')`,
  );
  db.exec(`INSERT INTO spaces (id, key, name, created_at, updated_at) VALUES ('s1', 'ENG', 'Eng', '${now}', '${now}')`);
  db.exec(
    `INSERT INTO pages (doc_id, id, space_id, parent_id, title, content_json, plain_text, current_version, status, ` +
      `created_at, updated_at) VALUES
    (7, 'p1', 's1', NULL, 'Root', '{"type":"doc"}', 'root text', 2, 1, '${now}', ` +
      `'${now}'),
    (8, 'p2', 's1', 'p1', 'Child', '{"type":"doc"}', 'child text', 1, 1, '${now}', '${now}')`,
  );
  db.exec(
    `INSERT INTO page_versions (page_id, version_number, title, content_json, change_comment, author_id, created_at) VALUES ('p1', ` +
      `1, 'Root', '{}', NULL, 'u1', '${now}'), ('p1', 2, 'Root', '{"type":"doc"}', 'second', 'u1', '${now}')`,
  );
  db.exec(`INSERT INTO labels (id, name, created_at) VALUES ('l1', 'howto', '${now}')`);
  db.exec(`INSERT INTO page_labels (page_id, label_id, added_at) VALUES ('p2', 'l1', '${now}')`);
  db.exec("DELETE FROM search_dirty");

  // Up to 0012 only: 0033 moved plain_text before the document (its own test below).
  expect(migrate(db, migrations.slice(0, upTo + 1), null, 0).applied.some((t) => t.startsWith("0012_"))).toBe(true);

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
  const [a, b, c] = [
    "0190a6c8-0000-7000-8000-00000000000a",
    "0190a6c8-0000-7000-8000-00000000000b",
    "0190a6c8-0000-7000-8000-00000000000c",
  ];
  const link = (href: string) => ({ type: "text", text: "x", marks: [{ type: "link", attrs: { href } }] });
  const docA = {
    type: "doc",
    content: [
      {
        type: "paragraph",
        content: [
          link(`/s/ENG/p/${b}-install#setup`),
          link(`https://elsewhere.example/s/ENG/p/${c}`),
          link(`/p/${c.toUpperCase()}`),
          link(`/s/ENG/p/${b}/history/2`),
          link("/s/ENG"),
        ],
      },
    ],
  };
  db.exec(`INSERT INTO spaces (id, key, name, created_at, updated_at) VALUES ('s1', 'ENG', 'Eng', '${now}', '${now}')`);
  const insert = db.prepare(
    "INSERT INTO pages (id, space_id, title, content_json, plain_text, current_version, " +
      "status, created_at, updated_at) VALUES (?, 's1', ?, ?, '', 1, 1, ?, ?)",
  );
  insert.run(a, "A", JSON.stringify(docA), now, now);
  insert.run(b, "B", JSON.stringify({ type: "doc", content: [{ type: "paragraph" }] }), now, now);
  migrate(db, migrations, null, 0);
  const rows = db.query<{ s: string; t: string }, []>("SELECT source_page_id AS s, target_page_id AS t FROM page_links ORDER BY t").all();
  expect(rows).toEqual([
    { s: a, t: b },
    { s: a, t: c },
  ]);
  // The same as the writer would have recorded.
  expect(linkedPageIds(docA).sort()).toEqual([b, c]);
});

test("0033 puts the page's text before its document and keeps every row, what refers to pages, the search index and its triggers", () => {
  const db = openSqlite(join(dir, "cairn.db"));
  const upTo = migrations.findIndex((m) => m.tag.startsWith("0033_"));
  migrate(db, migrations.slice(0, upTo), null, 0);
  expect(columns(db, "pages").slice(-2)).toEqual(["content_json", "plain_text"]);
  const now = "2026-01-01T00:00:00.000Z";
  db.exec(`INSERT INTO roles (id, name, tier, permissions, created_at) VALUES ('r1', 'User', 0, '[]', '${now}')`);
  db.exec(
    `INSERT INTO users (id, email, display_name, password_hash, role_id, created_at, ` +
      `updated_at) VALUES ('u1', 'a@example.com', 'A', 'x', 'r1', '${now}', '${now}')`,
  );
  db.exec(`INSERT INTO spaces (id, key, name, created_at, updated_at) VALUES ('s1', 'ENG', 'Eng', '${now}', '${now}')`);
  const big = JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "word ".repeat(3000) }] }] });
  const insert = db.prepare(
    `INSERT INTO pages (doc_id, id, space_id, parent_id, title, content_json, plain_text, current_version, position, ` +
      `status, emoji, full_width,
    created_by_id, updated_by_id, created_at, updated_at, deleted_at, deleted_by_id, ` +
      `trash_root_id) VALUES (?, ?, 's1', ?, ?, ?, ?, 1, ?, 1, ?, ?, 'u1', 'u1', ?, ?, ?, ?, ?)`,
  );
  insert.run(7, "p1", null, "Root", big, "root text", 0, "📘", 1, now, now, null, null, null);
  insert.run(9, "p2", "p1", "Child", "{}", "child text", 3, null, 0, now, now, now, "u1", "p2");
  db.exec(
    `INSERT INTO page_versions (page_id, version_number, title, content_json, change_comment, ` +
      `author_id, created_at) VALUES ('p1', 1, 'Root', '${big}', NULL, 'u1', '${now}')`,
  );
  db.exec("INSERT INTO page_links (source_page_id, target_page_id) VALUES ('p2', 'p1')");
  db.exec("INSERT INTO search_words (rowid, title, body) VALUES (7, 'Root', 'root text'), (9, 'Child', 'child text')");
  db.exec("DELETE FROM search_dirty");
  const before = db.query("SELECT * FROM pages ORDER BY doc_id").all();

  expect(migrate(db, migrations, null, 0).applied.some((t) => t.startsWith("0033_"))).toBe(true);

  expect(columns(db, "pages").slice(-2)).toEqual(["plain_text", "content_json"]);
  expect(db.query("SELECT * FROM pages ORDER BY doc_id").all()).toEqual(before);
  expect(db.query("PRAGMA foreign_key_check").all()).toEqual([]);
  expect(
    db
      .query("SELECT name FROM sqlite_master WHERE tbl_name = 'pages' AND type IN ('index', 'trigger') ORDER BY name")
      .all()
      .map((r: any) => r.name),
  ).toEqual([
    "pages_id_unique",
    "pages_parent_idx",
    "pages_search_delete",
    "pages_search_insert",
    "pages_search_update",
    "pages_space_parent_position_idx",
    "pages_status_idx",
    "pages_trash_root_idx",
  ]);
  // The contentless index still finds the same pages by doc_id, and nothing was marked to index again.
  expect(
    db.query("SELECT p.id FROM search_words s JOIN pages p ON p.doc_id = s.rowid WHERE search_words MATCH 'text' ORDER BY p.doc_id").all(),
  ).toEqual([{ id: "p1" }, { id: "p2" }]);
  expect(db.query("SELECT count(*) AS n FROM search_dirty").get()).toEqual({ n: 0 });
  db.exec("UPDATE pages SET plain_text = 'new text' WHERE id = 'p2'");
  expect(db.query("SELECT doc_id FROM search_dirty").all()).toEqual([{ doc_id: 9 }]);
  // The foreign keys lead to the rebuilt table: deleting a page cascades to its versions and links.
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("DELETE FROM pages WHERE id = 'p1'");
  expect(db.query("SELECT count(*) AS n FROM page_versions").get()).toEqual({ n: 0 });
  expect(db.query("SELECT parent_id FROM pages WHERE id = 'p2'").get()).toEqual({ parent_id: null });
  db.close();
});
