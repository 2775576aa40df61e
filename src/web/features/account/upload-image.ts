/**
 * PUT of one picture as the multipart field `file` (avatars, space icons), through the one
 * upload helper: a refusal is an ApiError with the API's own sentence.
 */
import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { upload } from "../../api/upload";
import { useAction } from "../../lib/mutation";
import { MB } from "../../../common/limits";

export const putImage = <T>(path: string, file: File): Promise<T> => upload<T>({ method: "PUT", url: path, file });

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
export function useImageSlot<T>(opts: {
  path: string;
  maxMb: number;
  words: ImageSlotWords;
  onSaved(answer: T): void;
  remove(): Promise<void>;
  errorText?(err: unknown): string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [confirming, setConfirming] = useState(false);
  const slot = useAction(
    useMutation({
      mutationFn: async (work: SlotWork) =>
        work.kind === "upload" ? opts.onSaved(await putImage<T>(opts.path, work.file)) : opts.remove(),
    }),
    {
      failure: opts.errorText ?? ((err: unknown) => (err as Error).message),
      done: (_answer, work) => work.kind === "remove" && setConfirming(false),
      success: (_answer, work) => (work.kind === "upload" ? opts.words.saved : opts.words.removed),
    },
  );

  const upload = async (file: File) => {
    slot.setError(null);
    if (file.size > opts.maxMb * MB) return slot.setError(`That ${opts.words.noun} is larger than ${opts.maxMb} MB. Choose a smaller one.`);
    await slot.run({ kind: "upload", file });
    if (input.current) input.current.value = "";
  };
  const remove = () => slot.run({ kind: "remove" });
  return { input, busy: slot.pending?.kind ?? null, error: slot.error, setError: slot.setError, confirming, setConfirming, upload, remove };
}

type SlotWork = { kind: "upload"; file: File } | { kind: "remove" };
