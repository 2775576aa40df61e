/**
 * The shapes of an import's plan (plan.ts builds it, plan-page.ts adds one page's rows,
 * write-space.ts writes it). Apart so that plan-page.ts need not import plan.ts.
 */
import type { attachments } from "../attachments/tables";
import type { comments } from "../comments/tables";
import type { pages, pageVersions } from "../pages/tables";
import type { templates } from "../templates/tables";
import type { ImportedSpace } from "./model";

export interface ImportCounts {
  pages: number;
  versions: number;
  comments: number;
  attachments: number;
  labels: number;
  templates: number;
}

export interface ImportPlan {
  spaceId: string;
  key: string;
  name: string;
  description: string;
  settings: {
    iconKind: number;
    iconValue: string | null;
    iconColor: string | null;
    treeStyle: number;
    publicComments: boolean;
    exports: Record<string, boolean>;
  };
  homepageId: string | null;
  pages: (typeof pages.$inferInsert)[];
  versions: (typeof pageVersions.$inferInsert)[];
  comments: (typeof comments.$inferInsert)[];
  /** sha256, size and content type come from the blob store (write-space.ts storeBlobs). */
  attachments: (Omit<typeof attachments.$inferInsert, "sha256" | "size" | "contentType"> & { blob: string })[];
  /** Folded label names per page id; label rows are found or made in the transaction. */
  labels: { pageId: string; name: string }[];
  templates: (typeof templates.$inferInsert)[];
  /** Versions credited to the importer that keep the name the archive gave their author. */
  versionImportedAuthors: { pageId: string; versionNumber: number; name: string }[];
  /** Accounts authors were matched to (only when the importer may credit others): for the audit log. */
  credited: { userId: string; name: string }[];
  counts: ImportCounts;
  mapped: ImportedSpace["mapped"];
  skipped: ImportedSpace["skipped"];
}

export interface PlanOptions {
  key: string;
  name: string;
  ownerId: string;
  /**
   * The importer may credit other accounts (the owner, or whoever manages users): authors are
   * matched to accounts by e-mail. Otherwise a pack's pages, versions and comments are the
   * importer's, keeping their authors' names as text, and nobody else is named.
   */
  creditAccounts: boolean;
  now: number;
  /** Called after each page is checked (progress). */
  onPage?: () => void;
  /**
   * Staged writing (imports/staged.ts): whenever the pages checked since the last slice reach
   * `pages` or their versions `bytes` of JSON, `write` gets the plan holding just those pages'
   * rows (pages, versions, comments, attachments, imported authors), which are then let go;
   * once more at the end for the rest (possibly none). Labels and templates stay in the plan
   * for the end. Without it every row stays in the plan.
   */
  slices?: { pages: number; bytes: number; write: (plan: ImportPlan) => Promise<void> };
}
