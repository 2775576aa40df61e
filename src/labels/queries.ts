/**
 * The hand-written SQL of labels: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams"). Titles sort with pages/queries.ts byTitle.
 */
import { sql } from "drizzle-orm";
import type { Core } from "../core";
import { pageLabels } from "./tables";

/** Gives `toPageId` every label of `fromPageId`, in one statement. */
export function copyPageLabels(core: Core, fromPageId: string, toPageId: string, addedById: string, now: string): void {
  core.db.run(
    sql`insert into ${pageLabels} (page_id, label_id, added_by_id, added_at) select ${toPageId}, label_id, ${addedById}, ${now} from ${pageLabels} where page_id = ${fromPageId}`,
  );
}
