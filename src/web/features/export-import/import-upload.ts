/**
 * POST /api/spaces/import with XMLHttpRequest, which (unlike fetch) reports upload progress; once
 * the bytes are sent, the server's own progress (`?progress=<id>`) is followed until it answers.
 */
import { ApiError } from "../../api/client";
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

/** Answers the import's result, or throws an ApiError (the server's problem document, or status 0 for the network). Abort with the signal while uploading. */
export function importSpace({ file, key, name, onStage }: ImportRequest, signal: AbortSignal): Promise<ImportAnswer> {
  const progress = newProgressId();
  const query = new URLSearchParams({ progress, key });
  if (name.trim()) query.set("name", name.trim());
  return new Promise<ImportAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let answered = false;
    xhr.open("POST", `/api/spaces/import?${query}`);
    xhr.setRequestHeader("X-Requested-With", "Cairn");
    xhr.upload.onprogress = (e) => e.lengthComputable && onStage({ stage: "upload", fraction: e.loaded / e.total });
    xhr.upload.onload = () => {
      onStage({ stage: "server", phase: "starting", percent: 0 });
      void (async () => {
        while (!answered) {
          await sleep(POLL_MS);
          const view = await readProgress(progress).catch(() => null);
          if (view && !answered && !view.done) onStage({ stage: "server", phase: view.phase, percent: view.percent });
        }
      })();
    };
    xhr.onload = () => {
      answered = true;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: the status says enough */
      }
      if (xhr.status === 201) return resolve(body as unknown as ImportAnswer);
      reject(new ApiError(xhr.status, String(body.code ?? "error"), String(body.title ?? "The import failed"), body.detail as string | undefined, body.field as string | undefined, body));
    };
    xhr.onerror = () => {
      answered = true;
      reject(new ApiError(0, "network", "Cairn could not be reached", "Cairn could not be reached. Check your connection and try again.", undefined, {}));
    };
    xhr.onabort = () => {
      answered = true;
      reject(new ApiError(0, "aborted", "Cancelled", "The upload was cancelled; nothing was imported.", undefined, {}));
    };
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    // The small fields come before the file, so the server's streaming reader sees them first.
    const form = new FormData();
    form.append("key", key);
    if (name.trim()) form.append("name", name.trim());
    form.append("file", file, file.name);
    xhr.send(form);
  });
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
