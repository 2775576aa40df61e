/**
 * PUT of one picture as the multipart field `file` (avatars, space icons). The typed client
 * sends JSON; an upload is a form, so this is the one hand-written request, with the CSRF header
 * the API asks of session requests and the API's own sentence when it refuses.
 */
import { useRef, useState } from "react";
import { toast } from "../../ui/toast";
import { MB } from "../../../shared/limits";

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

/** What an image slot says: the kind of image, and the toasts after a save and a removal. */
export interface ImageSlotWords {
  noun: string;
  saved: string;
  removed: string;
}

/**
 * The state of one image slot (a picture, a space icon): the hidden file input, which action is
 * busy, the error to show beside it, the in-page removal confirmation, and the two actions.
 * Files over `maxMb` are refused before anything is sent.
 */
export function useImageSlot<T>(opts: { path: string; maxMb: number; words: ImageSlotWords; onSaved(answer: T): void; remove(): Promise<void>; errorText?(err: unknown): string }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<"upload" | "remove" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const text = opts.errorText ?? ((err: unknown) => (err as Error).message);

  const upload = async (file: File) => {
    setError(null);
    if (file.size > opts.maxMb * MB) return setError(`That ${opts.words.noun} is larger than ${opts.maxMb} MB. Choose a smaller one.`);
    setBusy("upload");
    try {
      opts.onSaved(await putImage<T>(opts.path, file));
      toast.success(opts.words.saved);
    } catch (err) {
      setError(text(err));
    } finally {
      setBusy(null);
      if (input.current) input.current.value = "";
    }
  };
  const remove = async () => {
    setBusy("remove");
    setError(null);
    try {
      await opts.remove();
      setConfirming(false);
      toast.success(opts.words.removed);
    } catch (err) {
      setError(text(err));
    } finally {
      setBusy(null);
    }
  };
  return { input, busy, error, setError, confirming, setConfirming, upload, remove };
}
