/**
 * Upload an image as the space's icon (PUT /api/media/space-icons/{key}: the server crops it to
 * a square, shrinks it and removes its metadata, then shows it at once), or remove the uploaded
 * one. The rest of the icon (emoji, letter) is chosen in the form around it.
 */
import { api, data } from "../../api/client";
import type { Space } from "../../api/types";
import { Button } from "../../ui/Button";
import { FormError } from "../../ui/Field";
import { IMAGE_ACCEPT, useImageSlot } from "../account/upload-image";
import { problemText, spaceChanged } from "./queries";
import { MB, SPACE_ICON_MAX_BYTES } from "../../../common/limits";

const MAX_MB = SPACE_ICON_MAX_BYTES / MB;

export function SpaceIconUpload({ space, onUploaded, onRemoved }: { space: Space; onUploaded(url: string): void; onRemoved(): void }) {
  const hasImage = space.iconKind === 2;
  const { input, busy, error, confirming, setConfirming, upload, remove } = useImageSlot<Space>({
    path: `/api/media/space-icons/${encodeURIComponent(space.key)}`,
    maxMb: MAX_MB,
    words: { noun: "image", saved: "Icon saved", removed: "Image removed; the space shows its letter" },
    errorText: problemText,
    onSaved: (updated) => {
      spaceChanged(updated);
      if (updated.iconValue) onUploaded(updated.iconValue);
    },
    remove: async () => {
      await data(api.DELETE("/api/media/space-icons/{key}", { params: { path: { key: space.key } } }));
      spaceChanged({ ...space, iconKind: 0, iconValue: null });
      onRemoved();
    },
  });

  return (
    <div className="icon-upload">
      <input
        ref={input}
        type="file"
        accept={IMAGE_ACCEPT}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => e.target.files?.[0] && void upload(e.target.files[0])}
      />
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
