/**
 * POST /api/spaces/import: an uploaded archive becomes a new space. In order:
 *   1. the caller may create spaces; the progress id and a key sent up front are checked before
 *      a byte of the file is read;
 *   2. the file streams to a temporary file in the data directory (never into memory), at most
 *      IMPORT_MAX_BYTES (413 while it streams);
 *   3. the zip is opened without trust (platform/zip/read.ts: every limit checked before
 *      inflating) and converted into an ImportedSpace (detect.ts);
 *   4. every row is built and checked (plan.ts) and written in slices of a few hundred pages
 *      into a staged space nobody sees, each slice's files into the blob store before its rows,
 *      yielding to other requests between slices (write-space.ts);
 *   5. one small transaction makes the space visible. A refusal, a failure or a cancel (the
 *      client gone) before that removes the staged space (staged.ts): all or nothing.
 * Steps 3 to 5 run for one import at a time across the server (queue.ts); the others wait in
 * line after their upload. Progress phases: upload, waiting (only when it must), reading,
 * checking (and writing each slice), writing (making it visible).
 */
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Core } from "../core";
import { canCreateSpace } from "../access/spaces";
import { requireUser, type Caller } from "../identity/caller";
import { hasRight } from "../identity/rights";
import { newId } from "../platform/crypto";
import { AppError, invalid, permissionRequired } from "../platform/errors";
import { singleLine, tidySingleLine } from "../platform/text";
import { MultipartError, multipartBoundary, OVERHEAD_BYTES, readFilePart } from "../platform/multipart";
import { startProgress, type Progress } from "../platform/progress";
import { IMPORT_LIMIT_WHY, IMPORT_MAX_BYTES } from "./limits";
import { openZip, ZipRefused, type OpenedZip } from "../platform/zip/read";
import { findSpaceByKey, NAME_MAX, normaliseKey, spaceFor, type Space } from "../spaces/service";
import { convert, detectFormat } from "./detect";
import type { ImportedSpace, ImportFormat } from "./model";
import type { ImportCounts } from "./plan";
import { importsBusy, importTurns } from "./queue";
import { importRefused } from "./refused";
import { writeStaged } from "./write-space";

const MB = 1024 * 1024;
const FILE_FIELD = "file";
/** The form's text fields beside the file (the same as the query's key and name). */
const FORM_FIELDS = ["key", "name"] as const;
/** Shares of the percentage: storing the upload and checking every document take the longest. */
const WEIGHTS = { upload: 25, reading: 15, checking: 55, writing: 5 };

export interface ImportRequest {
  contentType: string | null;
  contentLength: string | null;
  body: ReadableStream<Uint8Array> | null;
  /** `key`, `name` and `progress` from the query (`key`, `name` may also be form fields, before or after the file). */
  query: { key?: string; name?: string; progress?: string };
  /** Aborted when the client goes away: the import stops between slices and removes what it wrote. */
  signal?: AbortSignal;
}

export interface ImportResult {
  space: Space;
  counts: ImportCounts;
  format: ImportFormat;
  mapped: ImportedSpace["mapped"];
  skipped: ImportedSpace["skipped"];
}

const tooLargeError = () => new AppError("payload_too_large", { detail: IMPORT_LIMIT_WHY, extra: { limit: IMPORT_MAX_BYTES } });

function keyTaken(key: string): AppError {
  return new AppError("key_taken", { field: "key", detail: `The key ${key} is already used by another space.` });
}

/** The key to use, checked (400 on `key`) and free (409 key_taken). */
function freeKey(core: Core, key: string): string {
  const k = normaliseKey(key);
  if (findSpaceByKey(core, k)) throw keyTaken(k);
  return k;
}

/** One line, at most NAME_MAX characters; a name from an archive is tidied, a name sent must be right. */
function spaceName(sent: string | undefined, fromArchive: string): string {
  if (sent !== undefined) {
    const n = sent.trim().replace(/\s+/g, " ");
    if (!n) throw invalid("name", "must not be blank");
    singleLine("name", n);
    if (n.length > NAME_MAX) throw invalid("name", `must be at most ${NAME_MAX} characters`);
    return n;
  }
  return tidySingleLine(fromArchive, NAME_MAX) || "Imported space";
}

export async function importSpace(core: Core, caller: Caller, request: ImportRequest): Promise<ImportResult> {
  const user = requireUser(caller);
  if (!canCreateSpace(user)) throw permissionRequired("spaces.create");
  if (request.query.key !== undefined) freeKey(core, request.query.key);
  const boundary = multipartBoundary(request.contentType);
  if (!boundary)
    throw new AppError("unsupported_media_type", { detail: `Send the archive as multipart/form-data in the field "${FILE_FIELD}".` });
  if (Number(request.contentLength ?? 0) > IMPORT_MAX_BYTES + OVERHEAD_BYTES) throw tooLargeError();
  // A full line is told before the upload is read (its place is taken only once the file is on disk).
  if (importTurns.full) throw importsBusy();
  const progress = startProgress(request.query.progress, user.user.id, WEIGHTS);
  const file = join(core.data.tmpDir, `import-${newId()}.zip`);
  let release = () => {};
  try {
    const fields = await receive(request, boundary, file, progress, (key) => freeKey(core, key));
    const key = sent("key", request.query.key, fields.get("key"));
    // A key sent after the file is checked now that the file is on disk (one sent before, before a byte of it).
    if (key !== undefined) freeKey(core, key);
    const sentName = sent("name", request.query.name, fields.get("name"));

    release = await importTurns.take(importsBusy, () => progress.phase("waiting", 1));
    const zip = await opened(file);
    const format = await detectFormat(zip).catch(refusedZip);
    progress.phase("reading", zip.entries.length);
    const imported = await convert(zip, format, () => progress.step()).catch(refusedZip);
    if (key === undefined && !imported.space.key) throw invalid("key", "is required: send the new space's key (the archive names none)");
    const finalKey = freeKey(core, key ?? imported.space.key!);

    progress.phase("checking", imported.pages.length);
    const { plan, row } = await writeStaged(
      core,
      imported,
      {
        key: finalKey,
        name: spaceName(sentName, imported.space.name),
        ownerId: user.user.id,
        creditAccounts: hasRight(user, "users.manage"),
        now: core.clock.now(),
        onPage: () => progress.step(),
      },
      { id: user.user.id, ip: user.ip },
      { signal: request.signal, beforePublish: () => progress.phase("writing", 1) },
    ).catch(refusedZip);
    progress.done();
    return { space: spaceFor(core, caller, row), counts: plan.counts, format, mapped: plan.mapped, skipped: plan.skipped };
  } catch (err) {
    if (request.signal?.aborted) progress.fail("cancelled", "The import was cancelled.");
    else progress.fail(err instanceof AppError ? err.problemCode : "internal_error", err instanceof Error ? err.message : String(err));
    throw err;
  } finally {
    release();
    rmSync(file, { force: true });
  }
}

/** A value sent in the query or as a form field; both, when they differ, is a 400 (which one was meant?). */
function sent(name: string, query: string | undefined, field: string | undefined): string | undefined {
  if (query !== undefined && field !== undefined && query !== field)
    throw invalid(name, `is sent twice with different values (in the query and as a form field): send it once`);
  return query ?? field;
}

/** A refusal of the zip reader (an entry read late, while converting) as the 400 it is. */
function refusedZip(err: unknown): never {
  if (err instanceof ZipRefused) throw importRefused(err.reason, err.path);
  throw err;
}

async function opened(file: string): Promise<OpenedZip> {
  try {
    return await openZip(file);
  } catch (err) {
    refusedZip(err);
  }
}

/**
 * Streams the file part to `file`; answers the form's small fields, those sent after the file
 * included (curl -F file=@x -F key=K sends the key last).
 */
async function receive(
  request: ImportRequest,
  boundary: string,
  file: string,
  progress: Progress,
  checkKey: (key: string) => void,
): Promise<Map<string, string>> {
  const missing = () => invalid(FILE_FIELD, `is required: send the archive as the multipart field "${FILE_FIELD}"`);
  if (!request.body) throw missing();
  try {
    const part = await readFilePart(request.body, boundary, FILE_FIELD, IMPORT_MAX_BYTES, { freeChunks: true, accepts: FORM_FIELDS });
    if (!part) throw missing();
    // A key sent before the file is checked before the file is read.
    const key = request.query.key ?? part.before.get("key");
    if (key !== undefined) checkKey(key);
    progress.phase("upload", Math.max(1, Math.ceil(Number(request.contentLength ?? 0) / MB)));
    const fd = openSync(file, "wx", 0o600);
    try {
      let sinceStep = 0;
      for await (const chunk of part.body) {
        let written = 0;
        while (written < chunk.byteLength) written += writeSync(fd, chunk, written);
        sinceStep += chunk.byteLength;
        if (sinceStep >= MB) {
          progress.step(Math.floor(sinceStep / MB));
          sinceStep %= MB;
        }
      }
    } finally {
      closeSync(fd);
    }
    return await part.fields();
  } catch (err) {
    if (err instanceof MultipartError)
      throw err.kind === "too_large" ? tooLargeError() : invalid("body", `is not a valid multipart form: ${err.message}`);
    throw err;
  }
}
