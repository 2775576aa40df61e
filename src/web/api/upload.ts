/**
 * The one way a file goes up: a multipart form sent with XMLHttpRequest, which (unlike fetch)
 * reports upload progress and can be cancelled. Every upload (attachments, pictures, space icons,
 * branding images, space imports) comes through here, with the CSRF header the API asks of
 * session requests; a refusal is an ApiError made as the typed client makes it (client.ts), so a
 * screen reads `code`, `field` and the server's words the same way for an upload as for any call.
 */
import { ApiError, problem } from "./client";

export interface UploadRequest {
  method: "POST" | "PUT";
  /** The path with its query, e.g. `/api/pages/abc/attachments`. */
  url: string;
  file: File;
  /** Small fields sent before the file, so the server's streaming reader sees them first. */
  fields?: Record<string, string>;
  /** The status a success answers (201 for a new resource, 200 for a replaced one); any 2xx when absent. */
  okStatus?: number;
  /** Called with the share of bytes sent, 0 to 1. */
  onProgress?(fraction: number): void;
  /** Called once every byte is sent (the server is working on it from then on). */
  onSent?(): void;
  /** Cancels the upload: it then fails with the code `aborted`. */
  signal?: AbortSignal;
  /** The words when the server could not be reached, and when the upload was cancelled. */
  unreachable?: string;
  cancelled?: string;
}

const UNREACHABLE = "The upload failed: Cairn could not be reached. Check your connection and try again.";

/** Sends the file; answers the server's JSON, or throws an ApiError (status 0 for the network or a cancel). */
export function upload<T>(request: UploadRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    xhr.setRequestHeader("X-Requested-With", "Cairn");
    xhr.upload.onprogress = (e) => e.lengthComputable && request.onProgress?.(e.loaded / e.total);
    xhr.upload.onload = () => request.onSent?.();
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: the status says enough */
      }
      const ok = request.okStatus === undefined ? xhr.status >= 200 && xhr.status < 300 : xhr.status === request.okStatus;
      if (ok) return resolve(body as T);
      reject(problem(xhr.status, body, new URL(request.url, location.href).pathname, `The upload failed (${xhr.status}).`));
    };
    const unreachable = request.unreachable ?? UNREACHABLE;
    xhr.onerror = () => reject(new ApiError(0, "network", unreachable, unreachable, undefined, {}));
    const cancel = () => reject(new ApiError(0, "aborted", "Cancelled", request.cancelled ?? "The upload was cancelled.", undefined, {}));
    xhr.onabort = cancel;
    if (request.signal?.aborted) return cancel();
    request.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    for (const [name, value] of Object.entries(request.fields ?? {})) form.append(name, value);
    form.append("file", request.file, request.file.name);
    xhr.send(form);
  });
}
