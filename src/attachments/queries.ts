/**
 * The hand-written SQL of attachments: the one file a second backend rewrites for this domain
 * (docs/architecture.md, "Seams").
 */
import { eq, sql } from "drizzle-orm";
import type { Core } from "../core";
import { attachments } from "./tables";

/** Whether an attachment row refers to the blob. */
export function attachmentUsesBlob(core: Core, sha256: string): boolean {
  return core.db.select({ one: sql`1` }).from(attachments).where(eq(attachments.sha256, sha256)).limit(1).get() !== undefined;
}
