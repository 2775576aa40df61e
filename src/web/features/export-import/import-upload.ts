/**
 * POST /api/spaces/import through the one upload helper (progress, cancel); once the bytes are
 * sent, the server's own progress (`?progress=<id>`) is followed until it answers.
 */
import { upload } from "../../api/upload";
import type { AnswerOf } from "../../api/types";
import { newProgressId } from "./download";
import { POLL_MS, readProgress, sleep } from "./follow";

/** What the server answers: the new space, counts, the format found, what was mapped or skipped. */
export type ImportAnswer = AnswerOf<"/api/spaces/import", "post">;

export type ImportStage = { stage: "upload"; fraction: number } | { stage: "server"; phase: string; percent: number };

export interface ImportRequest {
  file: File;
  key: string;
  name: string;
  onStage(stage: ImportStage): void;
}

/**
 * Answers the import's result, or throws an ApiError (the server's problem document, or status 0
 * for the network). Abort with the signal while uploading.
 */
export function importSpace({ file, key, name, onStage }: ImportRequest, signal: AbortSignal): Promise<ImportAnswer> {
  const progress = newProgressId();
  const query = new URLSearchParams({ progress, key });
  if (name.trim()) query.set("name", name.trim());
  let answered = false;
  // Once the bytes are sent, the server's own progress is followed until it answers.
  const follow = () => {
    onStage({ stage: "server", phase: "starting", percent: 0 });
    void (async () => {
      while (!answered) {
        await sleep(POLL_MS);
        const view = await readProgress(progress).catch(() => null);
        if (view && !answered && !view.done) onStage({ stage: "server", phase: view.phase, percent: view.percent });
      }
    })();
  };
  return upload<ImportAnswer>({
    method: "POST",
    url: `/api/spaces/import?${query}`,
    file,
    fields: name.trim() ? { key, name: name.trim() } : { key },
    okStatus: 201,
    onProgress: (fraction) => onStage({ stage: "upload", fraction }),
    onSent: follow,
    signal,
    unreachable: "Cairn could not be reached. Check your connection and try again.",
    cancelled: "The upload was cancelled; nothing was imported.",
  }).finally(() => (answered = true));
}

/** A key suggested from the file's name: a pack is named `<KEY>-pack.zip`; anything else gives initials (as a new space's name does). */
export function keyFromFilename(filename: string, keyFromName: (name: string) => string): string {
  const base = filename.replace(/\.zip$/i, "");
  const pack = /^([A-Z][A-Z0-9]{1,9})-(pack|site)$/i.exec(base);
  if (pack) return pack[1].toUpperCase();
  return keyFromName(base.replace(/[-_]+/g, " "));
}

/** A name suggested from the file's name (the pack's own name is used when none is sent). */
export function nameFromFilename(filename: string): string {
  const base = filename.replace(/\.zip$/i, "").replace(/-(pack|site)$/i, "");
  return base.replace(/[-_]+/g, " ").trim();
}
