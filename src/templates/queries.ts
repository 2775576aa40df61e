/**
 * The hand-written SQL of templates: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams").
 */
import { sql, type SQL } from "drizzle-orm";
import { templates } from "./tables";

/** ORDER BY term: names as readers sort them, case aside (before id). */
export function byName(): SQL {
  return sql`${templates.name} collate nocase`;
}
