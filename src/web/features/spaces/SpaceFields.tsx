/**
 * A new space's name, key and description, shared by the create dialog and the setup wizard:
 * the key is suggested from the name until the person edits it.
 */
import { useState } from "react";
import { keyFromName } from "../../lib/slug";
import { TextAreaField, TextField } from "../../ui/Field";

export function useSpaceDraft() {
  const [name, setName] = useState("");
  const [key, setKey] = useState("");
  const [keyEdited, setKeyEdited] = useState(false);
  const [description, setDescription] = useState("");
  return {
    name,
    setName,
    /** The key to send: the one typed, or the one suggested from the name. */
    key: keyEdited ? key : keyFromName(name),
    editKey(value: string) {
      setKeyEdited(true);
      setKey(value.toUpperCase());
    },
    description,
    setDescription,
    reset() {
      setName("");
      setKey("");
      setKeyEdited(false);
      setDescription("");
    },
  };
}

export type SpaceDraft = ReturnType<typeof useSpaceDraft>;

export function SpaceFields({
  draft,
  fieldError,
  nameLabel = "Name",
  rowClassName,
}: {
  draft: SpaceDraft;
  fieldError(field: string): string | null;
  nameLabel?: string;
  rowClassName: string;
}) {
  return (
    <>
      <div className={rowClassName}>
        <TextField
          label={nameLabel}
          required
          value={draft.name}
          onChange={(e) => draft.setName(e.target.value)}
          error={fieldError("name")}
          autoFocus
          placeholder="Engineering"
        />
        <TextField
          label="Key"
          required
          value={draft.key}
          onChange={(e) => draft.editKey(e.target.value)}
          error={fieldError("key")}
          hint="In links: /s/KEY"
          spellCheck={false}
        />
      </div>
      <TextAreaField
        label="Description"
        value={draft.description}
        onChange={(e) => draft.setDescription(e.target.value)}
        error={fieldError("description")}
        placeholder="What this space is for (optional)"
        rows={2}
      />
    </>
  );
}
