import { useState } from "react";
import { useLocation } from "wouter";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import { Button } from "../../ui/Button";
import { Dialog, DialogActions } from "../../ui/Dialog";
import { FormError } from "../../ui/Field";
import { toast } from "../../ui/toast";
import { useAuthForm } from "../../lib/useAuthForm";
import { SpaceFields, useSpaceDraft } from "./SpaceFields";

const EMOJI = ["📘", "🚀", "🛠️", "📋", "💡", "🎯", "🏠", "🧪", "📣", "🗂️", "🌱", "🔒"];

/** Name, key (suggested from the name until edited), description and an emoji icon. */
export function CreateSpaceDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const [, navigate] = useLocation();
  const draft = useSpaceDraft();
  const [emoji, setEmoji] = useState<string | null>(null);
  const form = useAuthForm();

  const reset = () => {
    draft.reset();
    setEmoji(null);
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const space = await data(
        api.POST("/api/spaces", { body: { key: draft.key, name: draft.name, description: draft.description, welcomePage: true } }),
      );
      if (emoji)
        await data(api.PUT("/api/spaces/{key}", { params: { path: { key: space.key } }, body: { iconKind: 1, iconValue: emoji } }));
      await queryClient.invalidateQueries({ queryKey: keys.spaces });
      toast.success(`Space “${space.name}” created`);
      onOpenChange(false);
      reset();
      navigate(`/s/${space.key}`);
    });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create a space"
      description="Everyone signed in can read and edit a new space; you can make it private in its permissions."
    >
      <form onSubmit={submit} noValidate>
        <SpaceFields draft={draft} fieldError={form.fieldError} rowClassName="key-row" />
        <fieldset className="emoji-row">
          <legend>Icon</legend>
          {EMOJI.map((e) => (
            <button
              key={e}
              type="button"
              className="emoji-choice"
              aria-pressed={emoji === e}
              aria-label={`Icon ${e}`}
              onClick={() => setEmoji(emoji === e ? null : e)}
            >
              {e}
            </button>
          ))}
        </fieldset>
        <FormError error={form.formError} />
        <DialogActions>
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" busy={form.busy}>
            Create space
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
