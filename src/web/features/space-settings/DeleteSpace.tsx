/**
 * Deleting the space: what would go (the deletion preview), the key typed again and the
 * password, in an in-page confirmation.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation } from "wouter";
import { api, ApiError, data } from "../../api/client";
import type { Space } from "../../api/types";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { TextField } from "../../ui/Field";
import { useAction } from "../../lib/mutation";
import { useDeleteSpaceMutation } from "./queries";

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

export function DeleteSpace({ space }: { space: Space }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [password, setPassword] = useState("");
  const [, navigate] = useLocation();
  const preview = useQuery({
    queryKey: ["space", space.key, "deletion-preview"],
    queryFn: () => data(api.GET("/api/spaces/{key}/deletion-preview", { params: { path: { key: space.key } } })),
    enabled: open,
  });
  const p = preview.data;
  const deletion = useAction(useDeleteSpaceMutation(space.key), {
    failure: (err) =>
      err instanceof ApiError && (err.code === "invalid_credentials" || err.field === "password")
        ? "That password is not right. Type your account's password."
        : (err as Error).message,
    success: `${space.name} was deleted`,
    done: () => navigate("/", { replace: true }),
  });
  const confirm = () => {
    if (typed.trim().toUpperCase() !== space.key) return deletion.setError(`Type the space's key, ${space.key}, to confirm.`);
    if (!password) return deletion.setError("Type your password to confirm.");
    void deletion.run({ confirmKey: typed.trim(), password });
  };
  return (
    <section className="settings-card settings-danger" aria-labelledby="general-delete">
      <h2 id="general-delete">Delete the space</h2>
      <p className="muted">
        Every page, version, comment and attachment of {space.name} is deleted for good. This cannot be undone; archive the space instead to
        keep it.
      </p>
      <Button variant="danger" onClick={() => (setTyped(""), setPassword(""), deletion.setError(null), setOpen(true))}>
        Delete {space.name}…
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${space.name}?`}
        description={
          p
            ? `${plural(p.pages, "page")} (${p.drafts} draft${p.drafts === 1 ? "" : "s"}, ${p.trashed} in ` +
              `the trash), ${plural(p.versions, "version")} and ${plural(p.attachments, "attachment")} ` +
              `(${size(p.bytes)}) will be deleted for good. This cannot be undone.`
            : "Everything in the space will be deleted for good. This cannot be undone."
        }
        confirmLabel="Delete the space for good"
        busy={deletion.busy}
        error={deletion.error}
        onConfirm={confirm}
      >
        <TextField
          label={`Type the key, ${space.key}, to confirm`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          autoFocus
        />
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </ConfirmDialog>
    </section>
  );
}
