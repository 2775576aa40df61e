/**
 * One card of settings with its own draft and Save: only the fields that changed are sent; a
 * 400 is shown under the field it names; a change that widens access asks for the password
 * (the re-authentication dialog) and is tried again.
 */
import { useState } from "react";
import { ApiError } from "../../../api/client";
import { Button } from "../../../ui/Button";
import { FormError } from "../../../ui/Field";
import { Card } from "../../../ui/SectionsFrame";
import { useAction } from "../../../lib/mutation";
import { useReauth } from "../../../lib/reauth";
import type { CardDef, FieldDef } from "./fields";
import { useSaveSettingsMutation } from "./queries";

type Values = Record<string, unknown>;
/** A secret's draft: undefined (keep), a new value, or null (clear). */
type Draft = Record<string, string | boolean | null | undefined>;

/** What the form shows for a stored value. */
function shown(field: FieldDef, settings: Values): string | boolean {
  const v = settings[field.key];
  if (field.kind === "check") return v === true;
  if (field.kind === "list") return ((v as string[] | undefined) ?? []).join("\n");
  if (field.kind === "secret") return "";
  return v === undefined || v === null ? "" : String(v);
}

/** What the API is sent for a field's draft. */
function toValue(field: FieldDef, draft: string | boolean | null): unknown {
  if (field.kind === "check") return draft === true;
  if (field.kind === "number") return draft === "" ? NaN : Number(draft);
  if (field.kind === "list")
    return String(draft)
      .split(/[\n,]/)
      .map((s) => s.trim())
      .filter(Boolean);
  return draft;
}

export function SettingsCard({ card, settings, rights }: { card: CardDef; settings: Values; rights: readonly string[] }) {
  const [draft, setDraft] = useState<Draft>({});
  const { guarded, dialog } = useReauth();
  const saving = useAction(useSaveSettingsMutation(guarded), {
    // A 400 names the field (`limits.x` is the field `limits`), or lists its errors, or names the setting.
    fieldOf: (err) =>
      (err.field ?? Object.keys((err.body.errors as object | undefined) ?? {})[0] ?? (err.body.setting as string | undefined))?.split(
        ".",
      )[0],
    failure: (err) =>
      err instanceof ApiError && err.code === "reauth_cancelled"
        ? "Nothing was saved: the password was not confirmed."
        : (err as Error).message.replace(/^\w+: /, ""),
    done: () => setDraft({}),
    success: `${card.title} saved`,
  });
  const busy = saving.busy;
  const may = (f: FieldDef) => rights.includes(f.right);
  // A secret counts once there is something to store or it is to be cleared (an empty box changes nothing).
  const changed = card.fields.filter(
    (f) => draft[f.key] !== undefined && (f.kind === "secret" ? draft[f.key] !== "" : draft[f.key] !== shown(f, settings)),
  );
  const locked = card.fields.some((f) => !may(f));

  const save = () => {
    const body: Values = {};
    for (const f of changed) body[f.key] = toValue(f, draft[f.key] as string | boolean | null);
    const bad = changed.find((f) => f.kind === "number" && !Number.isInteger(body[f.key]));
    if (bad)
      return saving.setError(
        `Type a whole number${bad.min !== undefined ? ` from ${bad.min.toLocaleString()} to ${bad.max!.toLocaleString()}` : ""}.`,
        bad.key,
      );
    void saving.run(body);
  };

  // A failure naming a field of another card, or none, is said under the form.
  const formError = saving.error && !card.fields.some((f) => saving.fieldError(f.key)) ? saving.error : null;
  const set = (key: string, value: string | boolean | null | undefined) => setDraft((d) => ({ ...d, [key]: value }));

  return (
    <Card id={`settings-${card.id}`} title={card.title} intro={card.intro}>
      <form
        className="settings-form"
        // The server's answer names the field and its range in plain words, under the field.
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
        aria-labelledby={`settings-${card.id}`}
      >
        {locked ? (
          <p className="settings-locked">
            Changing these needs the Security right, which your role does not hold; they are shown as they are.
          </p>
        ) : null}
        {card.fields.map((f) => (
          <SettingField
            key={f.key}
            field={f}
            value={draft[f.key] !== undefined ? draft[f.key]! : shown(f, settings)}
            isSet={settings[`${f.key}Set`] === true}
            draft={draft[f.key]}
            disabled={!may(f) || busy}
            error={saving.fieldError(f.key)}
            onChange={(v) => set(f.key, v)}
          />
        ))}
        <FormError error={formError} />
        <div className="settings-actions">
          {changed.length ? (
            <Button onClick={() => (setDraft({}), saving.setError(null))} disabled={busy}>
              Discard
            </Button>
          ) : null}
          <Button type="submit" variant="primary" busy={busy} disabled={!changed.length}>
            Save {card.title.toLowerCase()}
          </Button>
        </div>
      </form>
      {dialog}
    </Card>
  );
}

function SettingField({
  field,
  value,
  isSet,
  draft,
  disabled,
  error,
  onChange,
}: {
  field: FieldDef;
  value: string | boolean | null;
  isSet: boolean;
  draft: string | boolean | null | undefined;
  disabled: boolean;
  error: string | null;
  onChange(v: string | boolean | null | undefined): void;
}) {
  const id = `setting-${field.key}`;
  const note = `${id}-note`;
  const describe = { "aria-describedby": note, "aria-invalid": error ? (true as const) : undefined };
  const help = error ? (
    <p id={note} className="field-error" role="alert">
      {error}
    </p>
  ) : (
    <p id={note} className="field-hint">
      {field.help}
    </p>
  );
  if (field.kind === "check") {
    return (
      <div className="field settings-check">
        <label className="pane-check" htmlFor={id}>
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            disabled={disabled}
            onChange={(e) => onChange(e.target.checked)}
            {...describe}
          />
          {field.label}
        </label>
        {help}
      </div>
    );
  }
  if (field.kind === "secret") {
    const replacing = typeof draft === "string";
    return (
      <div className="field">
        <label htmlFor={replacing ? id : undefined} id={`${id}-label`}>
          {field.label}
        </label>
        {replacing ? (
          <div className="settings-secret-edit">
            <input
              id={id}
              className="input"
              type="password"
              autoComplete="new-password"
              value={String(draft)}
              disabled={disabled}
              onChange={(e) => onChange(e.target.value)}
              maxLength={field.maxLength}
              {...describe}
              autoFocus
            />
            <Button size="sm" onClick={() => onChange(undefined)} disabled={disabled}>
              Keep {isSet ? "the stored one" : "it empty"}
            </Button>
          </div>
        ) : (
          <div className="settings-secret" aria-labelledby={`${id}-label`} role="group">
            <span className={draft === null ? "settings-secret-state pane-bad" : "settings-secret-state"}>
              {draft === null ? "Will be cleared when you save" : isSet ? "Set" : "Not set"}
            </span>
            <Button size="sm" onClick={() => onChange("")} disabled={disabled}>
              {isSet ? "Replace" : "Set"}
            </Button>
            {isSet && draft !== null ? (
              <Button size="sm" onClick={() => onChange(null)} disabled={disabled}>
                Clear
              </Button>
            ) : null}
            {draft === null ? (
              <Button size="sm" onClick={() => onChange(undefined)} disabled={disabled}>
                Keep it
              </Button>
            ) : null}
          </div>
        )}
        {help}
      </div>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{field.label}</label>
      {field.kind === "choice" ? (
        <select
          id={id}
          className="input"
          value={String(value)}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          {...describe}
        >
          {field.choices!.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      ) : field.kind === "list" ? (
        <textarea
          id={id}
          className="input settings-list"
          rows={3}
          value={String(value)}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
          {...describe}
        />
      ) : (
        <input
          id={id}
          className={`input${field.kind === "number" ? " settings-number" : ""}`}
          type={field.kind === "number" ? "number" : field.kind === "url" ? "url" : field.kind === "email" ? "email" : "text"}
          inputMode={field.kind === "number" ? "numeric" : undefined}
          min={field.min}
          max={field.max}
          maxLength={field.maxLength}
          value={String(value)}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
          {...describe}
        />
      )}
      {help}
    </div>
  );
}
