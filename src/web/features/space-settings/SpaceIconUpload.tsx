/**
 * Upload an image as the space's icon (PUT /api/media/space-icons/{key}: the server crops it to
 * a square, shrinks it and removes its metadata, then shows it at once), or remove the uploaded
 * one. The rest of the icon (emoji, letter) is chosen in the form around it.
 */
import { useRef, useState } from "react";
import { api } from "../../api/client";
import type { Space } from "../../api/types";
import { Button } from "../../ui/Button";
import { FormError } from "../../ui/Field";
import { toast } from "../../ui/toast";
import { IMAGE_ACCEPT, putImage } from "../account/upload-image";
import { problemText, spaceChanged } from "./queries";

const MAX_MB = 10;

export function SpaceIconUpload({ space, onUploaded, onRemoved }: { space: Space; onUploaded(url: string): void; onRemoved(): void }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<"upload" | "remove" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hasImage = space.iconKind === 2;
  const path = `/api/media/space-icons/${encodeURIComponent(space.key)}`;

  const upload = async (file: File) => {
    setError(null);
    if (file.size > MAX_MB * 1024 * 1024) return setError(`That image is larger than ${MAX_MB} MB. Choose a smaller one.`);
    setBusy("upload");
    try {
      const updated = await putImage<Space>(path, file);
      spaceChanged(updated);
      if (updated.iconValue) onUploaded(updated.iconValue);
      toast.success("Icon saved");
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
      if (input.current) input.current.value = "";
    }
  };
  const remove = async () => {
    setBusy("remove");
    setError(null);
    try {
      await api.DELETE("/api/media/space-icons/{key}", { params: { path: { key: space.key } } });
      spaceChanged({ ...space, iconKind: 0, iconValue: null });
      onRemoved();
      setConfirming(false);
      toast.success("Image removed; the space shows its letter");
    } catch (err) {
      setError(problemText(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="icon-upload">
      <input ref={input} type="file" accept={IMAGE_ACCEPT} className="visually-hidden" tabIndex={-1} aria-hidden="true" onChange={(e) => e.target.files?.[0] && void upload(e.target.files[0])} />
      <div className="icon-row">
        <Button size="sm" busy={busy === "upload"} onClick={() => input.current?.click()}>
          {busy === "upload" ? "Uploading…" : hasImage ? "Upload another image" : "Upload an image"}
        </Button>
        {hasImage && !confirming ? (
          <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
            Remove image
          </Button>
        ) : null}
        <span className="muted" style={{ fontSize: "0.8125rem" }}>
          PNG, JPEG or WebP up to {MAX_MB} MB; saved at once. Or pick an emoji below.
        </span>
      </div>
      {confirming ? (
        <div className="icon-row" role="group" aria-label="Remove the icon image">
          <span>Remove the uploaded image? The space shows its first letter instead.</span>
          <Button size="sm" variant="danger" busy={busy === "remove"} onClick={() => void remove()}>
            Remove image
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
            Keep it
          </Button>
        </div>
      ) : null}
      <FormError error={error} />
    </div>
  );
}
