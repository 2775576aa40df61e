import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { eq } from "drizzle-orm";
import { toDrizzle } from "./open";
import { startCountingStatements, type StatementCounter } from "./statement-count";

const notes = sqliteTable("notes", { id: integer("id").primaryKey(), body: text("body").notNull() });

let counter: StatementCounter | null = null;
afterEach(() => counter?.stop());

function fresh() {
  const sqlite = new Database(":memory:", { strict: true });
  sqlite.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  return sqlite;
}

test("every door is counted: exec, run, our cached and prepared statements (each method), drizzle, bun's transaction", () => {
  const sqlite = fresh();
  const db = toDrizzle(sqlite);
  // Prepared before counting starts, as the domains' statements are (once per instance).
  const insert = sqlite.prepare("INSERT INTO notes (id, body) VALUES (?1, ?2)");
  const byId = sqlite.query<{ body: string }, [number]>("SELECT body FROM notes WHERE id = ?1");
  const all = sqlite.query("SELECT id FROM notes");
  counter = startCountingStatements({ keepText: true });

  sqlite.exec("BEGIN"); // 1
  insert.run(1, "one"); // 2
  insert.run(2, "two"); // 3
  sqlite.exec("COMMIT"); // 4
  sqlite.run("UPDATE notes SET body = 'uno' WHERE id = 1"); // 5
  expect(byId.get(1)?.body).toBe("uno"); // 6
  expect(all.all()).toHaveLength(2); // 7
  expect(all.values()).toHaveLength(2); // 8
  expect([...all.iterate()]).toHaveLength(2); // 9
  expect(db.select().from(notes).where(eq(notes.id, 2)).get()?.body).toBe("two"); // 10
  db.insert(notes).values({ id: 3, body: "three" }).run(); // 11
  expect(db.all(sql`SELECT count(*) AS n FROM notes`)).toEqual([{ n: 3 }]); // 12
  sqlite.transaction(() => insert.run(4, "four")).immediate(); // 13, 14, 15: BEGIN IMMEDIATE, INSERT, COMMIT

  expect(counter.count).toBe(15);
  expect(counter.texts[0]).toBe("BEGIN");
  // A prepared statement's text carries its bound values (cut short: a page's body can be bound).
  expect(counter.texts[1]).toBe("INSERT INTO notes (id, body) VALUES (1, 'one')");
  expect(counter.texts[5]).toBe("SELECT body FROM notes WHERE id = 1");
  sqlite.close();
});

test("reset, aside and stop: stopped, the driver's own methods are back and nothing is counted", () => {
  const sqlite = fresh();
  const statementProto = Object.getPrototypeOf(sqlite.prepare("SELECT 1").native);
  const originals = [statementProto.get, statementProto.run, Database.prototype.exec, Database.prototype.run];
  counter = startCountingStatements();
  expect(() => startCountingStatements()).toThrow(/already on/);
  sqlite.exec("SELECT 1");
  counter.aside(() => sqlite.query("SELECT 2").get());
  expect(counter.count).toBe(1);
  expect(counter.texts).toEqual([]); // not asked to keep them
  counter.reset();
  expect(counter.count).toBe(0);
  counter.stop();
  sqlite.query("SELECT 3").get();
  expect(counter.count).toBe(0);
  expect([statementProto.get, statementProto.run, Database.prototype.exec, Database.prototype.run]).toEqual(originals);
  // Another may start once this one stopped.
  counter = startCountingStatements();
  sqlite.query("SELECT 4").all();
  expect(counter.count).toBe(1);
  sqlite.close();
});
