/**
 * General settings: name, description, icon and tree style (saved together), then switches
 * saved at once (public reading, exports), archiving, and deleting the space.
 */
import { cloneElement, useState, type FormEvent } from "react";
import { Link } from "wouter";
import type { Space } from "../../api/types";
import { useMe } from "../../app/session";
import { Button } from "../../ui/Button";
import { EmojiGrid } from "../../ui/EmojiGrid";
import { FormError, TextAreaField, TextField } from "../../ui/Field";
import { SpaceIcon } from "../spaces/SpaceIcon";
import { DeleteSpace } from "./DeleteSpace";
import { SpaceIconUpload } from "./SpaceIconUpload";
import { useAction } from "../../lib/mutation";
import { problemText, useArchiveMutation, useExportsMutation, usePublicReadingMutation, useSpaceMutation } from "./queries";
import { useReauth } from "../../lib/reauth";
import { Switch } from "./Switch";
import { SPACE_NAME_MAX } from "../../../common/limits";

const TREE_STYLES = [
  { value: 0, label: "Plain", hint: "Titles only" },
  { value: 1, label: "Numbered", hint: "1, 1.1, 1.2…" },
  { value: 2, label: "Bulleted", hint: "A dot before each page" },
];
const EXPORTS = [
  { id: "markdown", label: "Markdown", hint: "Pages as .md files" },
  { id: "html", label: "HTML", hint: "Pages as web pages" },
  { id: "pdf", label: "PDF", hint: "Pages printed to PDF" },
  { id: "site", label: "Static site", hint: "The whole space as a browsable site" },
  { id: "pack", label: "Cairn pack", hint: "Everything, to import into another Cairn" },
] as const;

export function GeneralSection({ space }: { space: Space }) {
  return (
    <>
      <Identity space={space} />
      <Visibility space={space} />
      <Exports space={space} />
      <Archive space={space} />
      <DeleteSpace space={space} />
    </>
  );
}

function Identity({ space }: { space: Space }) {
  const [name, setName] = useState(space.name);
  const [description, setDescription] = useState(space.description);
  const [emoji, setEmoji] = useState<string | null>(space.iconKind === 1 ? space.iconValue : null);
  const [image, setImage] = useState<string | null>(space.iconKind === 2 ? space.iconValue : null);
  const [treeStyle, setTreeStyle] = useState(space.treeStyle);
  const saving = useAction(useSpaceMutation(space.key), { failure: (err) => problemText(err), success: "Saved" });
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return saving.setError("A space needs a name.", "name");
    void saving.run({
      name,
      description,
      treeStyle,
      ...(emoji ? { iconKind: 1, iconValue: emoji } : image ? { iconKind: 2, iconValue: image } : { iconKind: 0, iconValue: null }),
    });
  };
  return (
    <section className="settings-card" aria-labelledby="general-identity">
      <h2 id="general-identity">Name and look</h2>
      <form onSubmit={save}>
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={SPACE_NAME_MAX}
          error={saving.fieldError("name")}
        />
        <TextAreaField
          label="Description"
          hint="A sentence or two on what this space is for; shown on the home screen."
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          rows={3}
          error={saving.fieldError("description")}
        />
        <fieldset className="settings-fieldset">
          <legend>Icon</legend>
          <div className="icon-row">
            <SpaceIcon
              space={{ key: space.key, name: name || space.name, iconKind: emoji ? 1 : image ? 2 : 0, iconValue: emoji ?? image }}
              size={40}
            />
            <span className="muted">
              {emoji ? `The emoji ${emoji}` : image ? "Your uploaded image" : "The first letter of the name, on a colour of its own"}
            </span>
            {emoji || image ? (
              <Button size="sm" variant="ghost" onClick={() => (setEmoji(null), setImage(null))}>
                Use the letter
              </Button>
            ) : null}
          </div>
          <SpaceIconUpload space={space} onUploaded={(url) => (setImage(url), setEmoji(null))} onRemoved={() => setImage(null)} />
          <EmojiGrid
            onPick={setEmoji}
            wrap={(button, e) => cloneElement(button as React.ReactElement<{ "aria-pressed"?: boolean }>, { "aria-pressed": e === emoji })}
          />
        </fieldset>
        <fieldset className="settings-fieldset">
          <legend>Page tree</legend>
          <div className="choice-row">
            {TREE_STYLES.map((s) => (
              <label key={s.value} className="choice">
                <input
                  type="radio"
                  name="treeStyle"
                  value={s.value}
                  checked={treeStyle === s.value}
                  onChange={() => setTreeStyle(s.value)}
                />
                <span>
                  <span className="choice-label">{s.label}</span>
                  <span className="choice-hint">{s.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <FormError error={saving.fieldError("name") || saving.fieldError("description") ? null : saving.error} />
        <Button type="submit" variant="primary" busy={saving.busy}>
          Save changes
        </Button>
      </form>
    </section>
  );
}

function Visibility({ space }: { space: Space }) {
  const me = useMe().data;
  const { guarded, dialog } = useReauth();
  const publicReading = useAction(usePublicReadingMutation(space.key, guarded), {
    failure: (err) => problemText(err),
    success: (_answer, change) => change.said,
  });
  const error = publicReading.error;
  const canPublish = !!me?.permissions.includes("spaces.publish");
  const set = (body: { isPublic?: boolean; publicComments?: boolean }, said: string) => publicReading.run({ ...body, said });
  return (
    <section className="settings-card" aria-labelledby="general-public">
      <h2 id="general-public">Public reading</h2>
      <p className="muted">
        {canPublish
          ? "A public space can be read by anyone with its address, without an account."
          : "Only the wiki's administrators can make a space public."}
      </p>
      <Switch
        label="Anyone can read this space"
        hint="Visitors read pages; they cannot edit."
        checked={space.isPublic}
        disabled={!canPublish}
        onChange={(v) => void set({ isPublic: v }, v ? "The space is public" : "The space is no longer public")}
      />
      <Switch
        label="Visitors see the comments"
        hint="Comments are shown to visitors of a public space."
        checked={space.publicComments}
        disabled={!canPublish || !space.isPublic}
        onChange={(v) => void set({ publicComments: v }, v ? "Visitors see the comments" : "Comments are hidden from visitors")}
      />
      <FormError error={error} />
      {dialog}
    </section>
  );
}

function Exports({ space }: { space: Space }) {
  const exports = useAction(useExportsMutation(space.key), {
    failure: (err) => problemText(err),
    success: (_answer, body) => EXPORTS.filter((x) => x.id in body).map((x) => `${x.label} export ${body[x.id] ? "on" : "off"}`)[0],
  });
  const error = exports.error;
  const set = (id: (typeof EXPORTS)[number]["id"], on: boolean) => exports.run({ [id]: on });
  return (
    <section className="settings-card" aria-labelledby="general-exports">
      <h2 id="general-exports">Exports</h2>
      <p className="muted">
        The formats people may download this space's pages in. To download the whole space now, go to{" "}
        <Link href={`/s/${space.key}/settings/export`}>Export</Link>.
      </p>
      {EXPORTS.map((x) => (
        <Switch key={x.id} label={x.label} hint={x.hint} checked={space.exports[x.id]} onChange={(v) => void set(x.id, v)} />
      ))}
      <FormError error={error} />
    </section>
  );
}

function Archive({ space }: { space: Space }) {
  const archiving = useAction(useArchiveMutation(space.key), {
    failure: (err) => problemText(err),
    success: (_answer, archive) => (archive ? `${space.name} is archived` : `${space.name} is back in the space list`),
  });
  const error = archiving.error;
  const toggle = () => archiving.run(!space.archived);
  return (
    <section className="settings-card" aria-labelledby="general-archive">
      <h2 id="general-archive">{space.archived ? "Archived" : "Archive"}</h2>
      <p className="muted">
        {space.archived
          ? "This space is read-only and left out of the space list. Bring it back to edit it again."
          : "An archived space becomes read-only and leaves the space list; nothing is deleted, and you can bring it back."}
      </p>
      <FormError error={error} />
      <Button onClick={() => void toggle()} busy={archiving.busy}>
        {space.archived ? "Unarchive the space" : "Archive the space"}
      </Button>
    </section>
  );
}
