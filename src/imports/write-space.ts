/**
 * The one writer of every import, staged: the space's row first, marked staged (nobody sees it),
 * then the plan's rows (plan.ts) slice by slice, each slice's files into the blob store before
 * its rows (content-addressed: an import refused after that leaves only blobs nothing refers
 * to, which are deleted at once and which the start-up sweep would collect anyway), then one
 * small transaction that makes the space visible. All or nothing as seen from outside: a
 * failure removes the staged space (imports/staged.ts), and so does the next start after a
 * crash. The rows are built beforehand, so each transaction only inserts.
 */
import type { Core } from "../core";
import { deleteUnusedBlobs } from "../attachments/blob-refs";
import { ContentSniffer } from "../attachments/sniff";
import { insertAttachments } from "../attachments/store";
import { insertComments } from "../comments/store";
import { recordEvent } from "../events/outbox";
import { insertPageLabels, labelIdsMadeIfMissing } from "../labels/store";
import { CREATOR_ONLY, createSpaceRow, grantNewSpace } from "../permissions/new-space";
import { blobStore, type BlobLease } from "../platform/blobstore";
import { iso } from "../platform/clock";
import { fsyncPathOffLoop } from "../platform/fsync-off-loop";
import { AppError } from "../platform/errors";
import { isStaged, spaceRowById, updateSpaceRow } from "../spaces/store";
import type { SpaceRow } from "../spaces/tables";
import { insertTemplates } from "../templates/store";
import type { BlobSource, ImportedSpace } from "./model";
import { planImport, type ImportPlan, type PlanOptions } from "./plan";
import { insertMany } from "../pages/store/import";
import { importRefused } from "./refused";
import { removeStaged, writingStaged } from "./staged";

export interface StoredBlob {
  sha256: string;
  size: number;
  contentType: string;
}

/** What storeBlobs put, to be released (and, when the import fails, deleted). */
export interface StoredBlobs {
  byKey: Map<string, StoredBlob>;
  leases: BlobLease[];
}

/**
 * Each blob the plan's attachments use, once, streamed into the store with its type sniffed,
 * added to `stored` (a staged import stores each slice's files before its rows). On a failure
 * the caller releases `stored` (releaseBlobs, not committed), which deletes the new ones.
 */
export async function storeBlobs(
  core: Core,
  plan: Pick<ImportPlan, "attachments">,
  blobs: Map<string, BlobSource>,
  stored: StoredBlobs,
  onBlob: () => void = () => {},
): Promise<void> {
  const store = blobStore(core);
  for (const a of plan.attachments) {
    if (stored.byKey.has(a.blob)) continue;
    const source = blobs.get(a.blob);
    if (!source) throw importRefused(`the file of the attachment "${a.filename}" is missing from the archive`, a.blob);
    const sniffer = new ContentSniffer();
    const lease = await store.put(sniffed(source, sniffer));
    stored.leases.push(lease);
    stored.byKey.set(a.blob, { sha256: lease.sha256, size: lease.size, contentType: sniffer.result() });
    onBlob();
  }
}

async function* sniffed(source: BlobSource, sniffer: ContentSniffer): AsyncIterable<Uint8Array> {
  if (source.chunks) {
    for await (const chunk of source.chunks()) {
      sniffer.update(chunk);
      yield chunk;
    }
    return;
  }
  const bytes = await source.read();
  sniffer.update(bytes);
  yield bytes;
}

/** Lets the store delete the blobs again once nothing refers to them; a failed import deletes the new ones. */
export function releaseBlobs(core: Core, stored: StoredBlobs, committed: boolean): void {
  for (const lease of stored.leases) lease.release();
  if (!committed)
    deleteUnusedBlobs(
      core,
      stored.leases.filter((l) => l.created).map((l) => l.sha256),
    );
}

const MB = 1024 * 1024;
/**
 * A slice written in one transaction: at most this many pages or bytes of version JSON. A slice
 * of 100 ordinary pages commits in 5 to 10 ms on a quiet machine (200 took twice that, and on
 * a loaded one ten times more), the longest a request waits behind it. Halved since: a slice's
 * COMMIT (its frames written and archived, then fsynced) lands in the same turn of the event
 * loop as the search index's catch-up of those pages, and the two together held requests past
 * 100 ms.
 */
const SLICE_PAGES = 50;
const SLICE_BYTES = 1 * MB;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Nobody reads this answer (the client is gone); the progress says `cancelled`. */
const cancelled = () => new AppError("conflict", { detail: "The import was cancelled: the connection closed before it was finished." });

export interface StagedOptions {
  /** Aborted when the client goes away: the import stops between slices and removes what it wrote. */
  signal?: AbortSignal;
  /** Before the last transaction (progress). */
  beforePublish?: () => void;
  /** After each slice is committed, while the space is still staged (tests look at it here). */
  afterSlice?: (slice: ImportPlan) => Promise<void>;
  /** Pages per slice (tests make it small). */
  slicePages?: number;
}

/**
 * The converted archive planned (plan.ts) and written: staged slice by slice, each slice's files
 * before its rows, yielding between slices; made visible at the end. Anything thrown before
 * that (a refusal, a cancel, a failure) removes the staged space before it is rethrown, and the
 * files it stored. Answers the plan (its counts and report) and the space's row.
 */
export async function writeStaged(
  core: Core,
  imported: ImportedSpace,
  planning: Omit<PlanOptions, "slices">,
  actor: { id: string; ip: string | null },
  opts: StagedOptions = {},
): Promise<{ plan: ImportPlan; row: SpaceRow }> {
  const stored: StoredBlobs = { byKey: new Map(), leases: [] };
  let staged: string | null = null;
  let notWriting = () => {};
  let committed = false;
  // The last slice's log frames on their way to the disk (an error, or null once there).
  let syncing: Promise<unknown> = Promise.resolve(null);
  const synced = async () => {
    const err = await syncing;
    if (err) throw err;
  };
  try {
    const write = async (slice: ImportPlan) => {
      if (staged === null) {
        stageSpace(core, slice, actor);
        staged = slice.spaceId;
        notWriting = writingStaged(staged);
      }
      // The last call may bring no rows (the pages ended on a slice's bound): no empty transaction.
      if (!hasRows(slice)) return;
      await storeBlobs(core, slice, imported.blobs, stored);
      if (opts.signal?.aborted) throw cancelled();
      await synced();
      const failures = core.commits.failures();
      writeSlice(core, slice, stored);
      // The slice's COMMIT runs in the next turn (group commit): waited for here, then one more
      // turn, so the plan's next run never shares a turn with it (requests are read between
      // turns). A COMMIT that failed lost the slice: the import fails rather than publish a space
      // without it.
      await core.commits.durable();
      if (core.commits.failures() !== failures) throw new Error("a slice of the import could not be committed");
      // The slice committed without an fsync (writeSlice): its frames reach the disk on a worker
      // thread while the plan checks the next slice, which is written once they are there. So
      // the log never holds much unsynced, and the publishing commit's fsync, on the event
      // loop, finds little left to write. A failed fsync fails the import.
      syncing = fsyncPathOffLoop(`${core.data.dbPath}-wal`).then(
        () => null,
        (err: unknown) => err,
      );
      await opts.afterSlice?.(slice);
      // Requests that arrived during the slice go first.
      await yieldToLoop();
    };
    const plan = await planImport(core, imported, {
      ...planning,
      slices: { pages: opts.slicePages ?? SLICE_PAGES, bytes: SLICE_BYTES, write },
    });
    await synced();
    opts.beforePublish?.();
    if (opts.signal?.aborted) throw cancelled();
    const row = publishStaged(core, plan, actor);
    committed = true;
    return { plan, row };
  } finally {
    notWriting();
    // The staged rows first, so that the files only they used are free when the leases go.
    if (!committed && staged !== null)
      await removeStaged(core, staged).catch((err) =>
        core.log.error("removing a failed import failed (the next start removes it)", {
          space: planning.key,
          error: err instanceof Error ? err.message : String(err),
        }),
      );
    releaseBlobs(core, stored, committed);
  }
}

const hasRows = (slice: ImportPlan) =>
  slice.pages.length + slice.versions.length + slice.comments.length + slice.attachments.length + slice.versionImportedAuthors.length > 0;

/**
 * The space's row, staged: nobody may see it (access/spaces.ts) until publishStaged. Made the
 * one way every space is (permissions/new-space.ts): its key is taken from now on, checked
 * again there (409 key_taken: another import or POST /api/spaces may have taken it meanwhile).
 * Its grants come when it is published.
 */
export function stageSpace(core: Core, plan: ImportPlan, actor: { id: string }): void {
  const now = iso(core.clock.now());
  core.tx(
    () => {
      const s = plan.settings;
      createSpaceRow(
        core,
        {
          id: plan.spaceId,
          key: plan.key,
          name: plan.name,
          description: plan.description,
          iconKind: s.iconKind,
          iconValue: s.iconValue,
          iconColor: s.iconColor,
          treeStyle: s.treeStyle,
          publicComments: s.publicComments,
          exportMarkdown: s.exports.markdown ?? true,
          exportHtml: s.exports.html ?? true,
          exportPdf: s.exports.pdf ?? true,
          exportSite: s.exports.site ?? true,
          exportPack: s.exports.pack ?? true,
          homepageId: plan.homepageId,
          stagedAt: now,
          createdById: actor.id,
          createdAt: now,
          updatedAt: now,
        },
        null,
      );
      // Unsynced, as the slices are (writeSlice): nobody sees the row before the publishing commit.
    },
    { unsynced: true },
  );
}

/**
 * One slice's rows (plan.ts PlanOptions.slices) into the staged space, in one transaction,
 * committed without an fsync of its own (platform/db/transactions.ts, `unsynced`): nobody is told
 * of these rows before publishStaged, whose synced COMMIT makes every earlier frame of the log
 * durable; a power cut before it leaves a staged space, which the next start removes.
 */
export function writeSlice(core: Core, plan: ImportPlan, stored: StoredBlobs): void {
  core.tx(
    () => {
      // Pages, versions, imported authors' names and each page's links (the pages store).
      insertMany(core, plan.pages, plan.versions, plan.versionImportedAuthors);
      insertAttachments(
        core,
        plan.attachments.map(({ blob, ...a }) => ({ ...a, ...stored.byKey.get(blob)! })),
      );
      insertComments(core, plan.comments);
    },
    { unsynced: true },
  );
}

/**
 * The staged space made visible, in one small transaction: its grants (the importer's Admin
 * alone, CREATOR_ONLY: private until shared), labels
 * (the wiki's, found or made by name: made only now, so a failed import leaves none), templates,
 * the staged mark cleared, and the one `space.imported` event.
 */
export function publishStaged(core: Core, plan: ImportPlan, actor: { id: string; ip: string | null }): SpaceRow {
  const now = iso(core.clock.now());
  return core.tx(() => {
    if (!isStaged(core, plan.spaceId)) throw new Error(`the staged space ${plan.key} is gone`);
    grantNewSpace(core, plan.spaceId, actor.id, CREATOR_ONLY, now);
    writeLabels(core, plan, actor.id, now);
    insertTemplates(core, plan.templates);
    // Its creation is the moment it appears.
    updateSpaceRow(core, plan.spaceId, { stagedAt: null, createdAt: now, updatedAt: now });
    recordEvent(core, {
      type: "space.imported",
      targetType: "space",
      targetId: plan.spaceId,
      spaceId: plan.spaceId,
      actorId: actor.id,
      ip: actor.ip,
      // Accounts credited with pages, versions or comments by their e-mail in the archive: said in the audit log.
      data: { key: plan.key, name: plan.name, counts: plan.counts, ...(plan.credited.length ? { authorsCredited: plan.credited } : {}) },
    });
    return spaceRowById(core, plan.spaceId)!;
  });
}

/** Labels are the wiki's, by name: the existing ones are used, missing ones made. */
function writeLabels(core: Core, plan: ImportPlan, actorId: string, now: string): void {
  const names = [...new Set(plan.labels.map((l) => l.name))];
  const ids = labelIdsMadeIfMissing(core, names, now);
  insertPageLabels(
    core,
    plan.labels.map((l) => ({ pageId: l.pageId, labelId: ids.get(l.name)!, addedById: actorId, addedAt: now })),
  );
}
