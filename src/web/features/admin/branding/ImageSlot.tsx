/**
 * One branding image (logo, dark logo, favicon): what is there now on the background it will be
 * seen on, "Upload…" (PNG, WebP or SVG; the server re-encodes or sanitises it) and "Remove".
 * Each applies at once; a refusal is said under the image, in the server's words.
 */
import { useRef } from "react";
import { useTask } from "../../../lib/mutation";
import { toast } from "../../../ui/toast";
import { Button } from "../../../ui/Button";
import { Trash2, Upload } from "../../../ui/icons";
import { removeImage, uploadImage, type Branding, type Slot } from "./queries";
import { BRANDING_FILE_MAX_BYTES, megabytes } from "../../../../common/limits";

const ABOUT: Record<Slot, { title: string; hint: string; tile: "light" | "dark" }> = {
  logo: {
    title: "Logo",
    hint:
      `Shown in the top bar and on the sign-in screen. A wide image about 3:1 works ` +
      `best; at most ${megabytes(BRANDING_FILE_MAX_BYTES)}.`,
    tile: "light",
  },
  "logo-dark": {
    title: "Logo for the dark theme",
    hint: "Optional: a version that reads on dark backgrounds. Without it, the logo above is used.",
    tile: "dark",
  },
  favicon: { title: "Favicon", hint: "The small icon in the browser tab. A square image, at least 64 × 64.", tile: "light" },
};

const fileOf = (b: Branding, slot: Slot) => (slot === "logo" ? b.logo : slot === "logo-dark" ? b.logoDark : b.favicon);

export function ImageSlot({
  slot,
  branding,
  guarded,
}: {
  slot: Slot;
  branding: Branding;
  guarded<T>(action: () => Promise<T>): Promise<T>;
}) {
  const input = useRef<HTMLInputElement>(null);
  const task = useTask<"upload" | "remove">();
  const busy = task.pending?.what ?? null;
  const error = task.error;
  const about = ABOUT[slot];
  const file = fileOf(branding, slot);
  const titleId = `brand-${slot}-title`;

  const run = (kind: "upload" | "remove", action: () => Promise<void>) => task.run({ what: kind, work: () => guarded(action) });

  const upload = (chosen: File) =>
    run("upload", async () => {
      const done = await uploadImage(slot, chosen);
      toast.success(`${about.title} updated`);
      if (done.removed.length) toast.message(`Removed from the SVG for safety: ${done.removed.join(", ")}.`);
    });

  return (
    <div className="bf-slot" role="group" aria-labelledby={titleId}>
      <div className={`bf-tile bf-tile-${about.tile}${slot === "favicon" ? " bf-tile-square" : ""}`}>
        {file ? <img src={file.url} alt={`Current ${about.title.toLowerCase()}`} /> : <span className="bf-tile-empty">None</span>}
      </div>
      <div className="bf-slot-text">
        <h3 id={titleId} className="bf-slot-title">
          {about.title}
        </h3>
        <p className="field-hint">{about.hint}</p>
        {file ? (
          <p className="field-hint">
            {file.contentType === "image/svg+xml" ? "SVG" : "PNG"}
            {file.width && file.height ? `, ${file.width} × ${file.height}` : ""}, {formatSize(file.size)}
          </p>
        ) : null}
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="bf-slot-actions">
          <input
            ref={input}
            type="file"
            accept="image/png,image/webp,image/svg+xml"
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => {
              const chosen = e.target.files?.[0];
              e.target.value = "";
              if (chosen) void upload(chosen);
            }}
          />
          <Button size="sm" busy={busy === "upload"} onClick={() => input.current?.click()}>
            <Upload size={16} aria-hidden="true" /> {file ? "Replace…" : "Upload…"}
            <span className="visually-hidden"> ({about.title.toLowerCase()})</span>
          </Button>
          {file ? (
            <Button
              size="sm"
              variant="ghost"
              busy={busy === "remove"}
              onClick={() => void run("remove", () => removeImage(slot).then(() => void toast.success(`${about.title} removed`)))}
            >
              <Trash2 size={16} aria-hidden="true" /> Remove<span className="visually-hidden"> ({about.title.toLowerCase()})</span>
            </Button>
          ) : null}
        </div>
      </div>
    </div>
  );
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
