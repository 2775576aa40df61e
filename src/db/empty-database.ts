import { readFileSync } from "node:fs";
import { join } from "node:path";
import { migrate } from "../platform/db/migrate";
import { checkpointWal, openSqlite } from "../platform/db/open";
import { baseline, migrations } from "./migrations.gen";

/**
 * The database a first start would make (platform/db/empty-image.ts), made in `dir` by the
 * migrations and folded into one file: WAL mode is in its header, the log is empty. Every
 * migration is recorded as applied at the epoch (0): the time it was made is the build's.
 */
export function makeEmptyDatabase(dir: string): Uint8Array<ArrayBuffer> {
  const path = join(dir, "empty.db");
  const db = openSqlite(path);
  try {
    migrate(db, migrations, null, 0, baseline);
    checkpointWal(db);
  } finally {
    db.close();
  }
  return new Uint8Array(readFileSync(path));
}
