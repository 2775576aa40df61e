/** Test helpers for attachments. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { call, type TestEnv, type Who } from "../../tests/harness";

/** A multipart form with one file in the field `file` (or `field`). */
export function form(bytes: Uint8Array | string, filename: string, claimedType = "application/octet-stream", field = "file"): FormData {
  const fd = new FormData();
  fd.append(field, new File([bytes as BlobPart], filename, { type: claimedType }));
  return fd;
}

export function upload(env: TestEnv, who: Who, pageId: string, bytes: Uint8Array | string, filename = "a.bin", claimedType?: string) {
  return call(env, "POST", `/api/pages/${pageId}/attachments`, { as: who, body: form(bytes, filename, claimedType) });
}

export async function uploaded(
  env: TestEnv,
  who: Who,
  pageId: string,
  bytes: Uint8Array | string,
  filename = "a.bin",
  claimedType?: string,
) {
  const res = await upload(env, who, pageId, bytes, filename, claimedType);
  if (res.status !== 201) throw new Error(`upload ${filename}: ${res.status} ${res.text}`);
  return res.body as {
    id: string;
    pageId: string;
    filename: string;
    contentType: string;
    size: number;
    uploadedById: string;
    createdAt: string;
  };
}

/** Every file under a folder of the data directory (files/ or tmp/), relative to it. */
export function filesUnder(env: TestEnv, folder: "files" | "tmp"): string[] {
  const root = join(env.dir, folder);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .sort();
}

/** A tiny valid PNG (1×1). */
export const PNG = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"),
);
