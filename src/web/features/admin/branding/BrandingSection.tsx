/**
 * The admin area's Branding section (right branding.manage): the name and how it shows, the
 * images, the accent colours with their contrast verdict, the theme and sign-in arrangement,
 * and a live preview of all of it. Saving (and every image change) applies to the page at once;
 * the server asks for the password again when it was not confirmed lately. Loaded when first
 * opened.
 */
import { useEffect, useState } from "react";
import { ApiError } from "../../../api/client";
import { Loading } from "../../../app/Loading";
import { Button } from "../../../ui/Button";
import { FormError, TextField } from "../../../ui/Field";
import { Card } from "../../../ui/SectionsFrame";
import { useTask } from "../../../lib/mutation";
import { useReauth } from "../../../lib/reauth";
import { AccentField } from "./AccentField";
import { BrandPreview } from "./BrandPreview";
import { Choices } from "./Choices";
import { changeOf, draftOf, type Draft } from "./draft";
import { ImageSlot } from "./ImageSlot";
import { resetBranding, saveBranding, useAccentPreview, useBranding, type Branding } from "./queries";
import "./branding.css";
import { ACCENT_NAME_MAX, BRAND_NAME_MAX } from "../../../../common/limits";

export default function BrandingSection() {
  const branding = useBranding();
  if (branding.isPending) return <Loading label="Loading branding…" />;
  if (branding.isError)
    return (
      <p className="form-error" role="alert">
        The branding could not be loaded: {branding.error.message}
      </p>
    );
  return <BrandingForm branding={branding.data} />;
}

function BrandingForm({ branding }: { branding: Branding }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(branding));
  const { guarded, dialog } = useReauth();
  const saving = useTask({
    // A field's refusal shows beside it, in the server's detail.
    failure: (err) => (err instanceof ApiError && err.field ? (err.detail ?? err.message) : (err as Error).message),
    success: "Branding saved: everyone sees it from their next page",
  });
  const formError = saving.formError;
  // When the server's values change (a save, a reset) the form starts again from them; an image
  // uploaded meanwhile leaves the values, and so the edits not yet saved, alone.
  const saved = JSON.stringify(draftOf(branding));
  useEffect(() => setDraft(JSON.parse(saved) as Draft), [saved]);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    if (saving.fieldError(key)) saving.setError(null);
  };
  const custom = draft.accentPolicy === "custom";
  const verdicts = useAccentPreview(draft.accentLight, draft.accentDark, custom);
  const change = changeOf(draft, branding);
  const dirty = Object.keys(change).length > 0;
  const failing =
    custom &&
    [verdicts.data?.light, verdicts.data?.dark].some(
      (v) => v && !v.passesAA && (v.colour === draft.accentLight.toLowerCase() || v.colour === draft.accentDark.toLowerCase()),
    );

  const save = () => saving.run({ what: "save", work: () => guarded(() => saveBranding(change)) });

  return (
    <div className="bf">
      {dialog}
      <div className="bf-columns">
        <div className="bf-form">
          <Card
            id="brand-name"
            title="Name and logo"
            intro="How the wiki introduces itself: in the top bar, on the sign-in screen and in the browser tab."
          >
            <TextField
              label="Brand name"
              value={draft.brandName}
              placeholder={branding.instanceName}
              maxLength={BRAND_NAME_MAX}
              onChange={(e) => set("brandName", e.target.value)}
              hint={`Leave empty to use the wiki's name, “${branding.instanceName}”.`}
              error={saving.fieldError("brandName")}
            />
            <Choices
              legend="Show in the top bar"
              name="display"
              value={draft.display}
              onChange={(v) => set("display", v)}
              options={[
                ["name", "Name", "Cairn's mark and the name"],
                ["logo", "Logo", "The logo alone"],
                ["logo-and-name", "Logo and name", "The logo, then the name"],
              ]}
            />
            {draft.display !== "name" && !branding.logo ? <p className="bf-note">Until a logo is uploaded, the name shows.</p> : null}
            <div className="bf-slots">
              <ImageSlot slot="logo" branding={branding} guarded={guarded} />
              <ImageSlot slot="logo-dark" branding={branding} guarded={guarded} />
              <ImageSlot slot="favicon" branding={branding} guarded={guarded} />
            </div>
          </Card>

          <Card
            id="brand-colour"
            title="Accent colour"
            intro={
              "The colour of links, primary buttons and highlights. Each theme has its own, and each " +
              "must be readable: WCAG AA asks for a contrast of at least 4.5:1."
            }
          >
            <Choices
              legend="Accent"
              name="accentPolicy"
              value={draft.accentPolicy}
              onChange={(v) => set("accentPolicy", v)}
              options={[
                ["default", "Cairn's green", "Tested in both themes"],
                ["custom", "Your own colours", "One for light, one for dark"],
              ]}
            />
            {custom ? (
              <>
                <div className="bf-accents">
                  <AccentField
                    theme="light"
                    value={draft.accentLight}
                    onChange={(v) => set("accentLight", v)}
                    verdict={verdicts.data?.light}
                    error={saving.fieldError("accentLight")}
                  />
                  <AccentField
                    theme="dark"
                    value={draft.accentDark}
                    onChange={(v) => set("accentDark", v)}
                    verdict={verdicts.data?.dark}
                    error={saving.fieldError("accentDark")}
                  />
                </div>
                <TextField
                  label="Colour name (optional)"
                  value={draft.accentName}
                  maxLength={ACCENT_NAME_MAX}
                  placeholder="e.g. Acme blue"
                  onChange={(e) => set("accentName", e.target.value)}
                  hint="For the people who manage branding; nobody else sees it."
                  error={saving.fieldError("accentName")}
                />
              </>
            ) : null}
          </Card>

          <Card id="brand-look" title="Theme and sign-in screen">
            <Choices
              legend="Theme"
              name="themePolicy"
              value={draft.themePolicy}
              onChange={(v) => set("themePolicy", v)}
              options={[
                ["user", "Each person's choice", "Follows their system; they can switch"],
                ["light", "Always light", "No switch in the account menu"],
                ["dark", "Always dark", "No switch in the account menu"],
              ]}
            />
            <Choices
              legend="Sign-in screen"
              name="signInArrangement"
              value={draft.signInArrangement}
              onChange={(v) => set("signInArrangement", v)}
              options={[
                ["centered", "Centred card", "The brand above the form"],
                ["split", "Brand panel", "The brand beside the form, on a tint of the accent"],
              ]}
            />
          </Card>

          <div className="bf-save" role="group" aria-label="Save branding">
            <FormError error={formError} />
            {failing ? (
              <p className="field-error">Choose accent colours that pass WCAG AA (or use the suggested ones) before saving.</p>
            ) : null}
            <div className="bf-save-row">
              <Button variant="primary" busy={saving.busy} disabled={!dirty || failing} onClick={() => void save()}>
                Save branding
              </Button>
              <Button disabled={!dirty || saving.busy} onClick={() => setDraft(draftOf(branding))}>
                Discard changes
              </Button>
              <span className="muted bf-save-state" aria-live="polite">
                {dirty ? "Unsaved changes: the preview shows them." : "Everything is saved."}
              </span>
            </div>
          </div>
        </div>

        <div className="bf-side">
          <BrandPreview
            draft={draft}
            images={{ logoUrl: branding.logo?.url ?? null, logoDarkUrl: branding.logoDark?.url ?? null }}
            instanceName={branding.instanceName}
          />
        </div>
      </div>

      <ResetCard branding={branding} guarded={guarded} />
    </div>
  );
}

function ResetCard({ branding, guarded }: { branding: Branding; guarded<T>(action: () => Promise<T>): Promise<T> }) {
  const [confirming, setConfirming] = useState(false);
  const resetting = useTask({ success: "Branding reset to Cairn's own", done: () => setConfirming(false) });
  const { busy, error } = resetting;
  const customised = branding.updatedAt !== null;
  const reset = () => resetting.run({ what: "reset", work: () => guarded(resetBranding) });
  return (
    <Card
      id="brand-reset"
      title="Reset branding"
      danger
      intro={customised ? "Go back to Cairn's own name, colours and look." : "Nothing has been changed yet: Cairn's own look is in use."}
    >
      {confirming ? (
        <div className="bf-confirm" role="group" aria-label="Confirm the reset">
          <p>
            This removes the brand name, the custom colours,{" "}
            {[branding.logo && "the logo", branding.logoDark && "the dark logo", branding.favicon && "the favicon"]
              .filter(Boolean)
              .join(", ") || "the theme and sign-in choices"}
            , and puts back Cairn's own look for everyone. It cannot be undone.
          </p>
          <FormError error={error} />
          <div className="bf-save-row">
            <Button variant="danger" busy={busy} onClick={() => void reset()}>
              Reset everything
            </Button>
            <Button onClick={() => setConfirming(false)} disabled={busy}>
              Keep the branding
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="danger" disabled={!customised} onClick={() => setConfirming(true)}>
          Reset branding…
        </Button>
      )}
    </Card>
  );
}
