/**
 * PUT of one picture as the multipart field `file` (avatars, space icons). The typed client
 * sends JSON; an upload is a form, so this is the one hand-written request, with the CSRF header
 * the API asks of session requests and the API's own sentence when it refuses.
 */
export async function putImage<T>(path: string, file: File): Promise<T> {
  const form = new FormData();
  form.append("file", file, file.name);
  let res: Response;
  try {
    res = await fetch(path, { method: "PUT", body: form, headers: { "X-Requested-With": "Cairn" }, credentials: "same-origin" });
  } catch {
    throw new Error("The upload failed: Cairn could not be reached. Check your connection and try again.");
  }
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new Error(String(body.detail ?? body.title ?? `The upload failed (${res.status}).`));
  return body as T;
}

/** What the file picker offers: the formats the server decodes. */
export const IMAGE_ACCEPT = "image/png,image/jpeg,image/webp";
