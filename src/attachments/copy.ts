import { and, eq } from "drizzle-orm";
import type { UserCaller } from "../identity/caller";
import type { Core } from "../core";
import { pages, pageVersions } from "../pages/tables";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";
import { attachments } from "./tables";

/**
 * Inside a page copy's transaction: the copy gets its own attachment rows sharing the source's
 * blobs (no bytes are copied), and its document is pointed at them, so images and attachment
 * blocks keep working for readers of the copy even if the source goes away. The copy is new
 * (version 1 only), so its page row and its one version are rewritten alike. Ids are UUIDs:
 * replacing them as text inside the JSON cannot touch anything else.
 */
export function copyAttachments(core: Core, caller: UserCaller, fromPageId: string, toPageId: string): void {
  const rows = core.db.select().from(attachments).where(eq(attachments.pageId, fromPageId)).all();
  if (rows.length === 0) return;
  const now = iso(core.clock.now());
  const renamed = new Map<string, string>();
  for (const row of rows) {
    const id = newId();
    renamed.set(row.id, id);
    core.db.insert(attachments).values({ ...row, id, pageId: toPageId, uploadedById: caller.user.id, createdAt: now }).run();
  }
  const page = core.db.select({ contentJson: pages.contentJson }).from(pages).where(eq(pages.id, toPageId)).get();
  if (!page) return;
  let json = page.contentJson;
  for (const [from, to] of renamed) json = json.replaceAll(from, to);
  if (json === page.contentJson) return;
  core.db.update(pages).set({ contentJson: json }).where(eq(pages.id, toPageId)).run();
  core.db.update(pageVersions).set({ contentJson: json }).where(and(eq(pageVersions.pageId, toPageId), eq(pageVersions.versionNumber, 1))).run();
}
