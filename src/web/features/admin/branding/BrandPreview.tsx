/**
 * The live preview: a small picture of the top bar, a page with a link and a button, and the
 * sign-in screen, in the light and the dark theme, drawn from the values being edited (not yet
 * saved). It is a picture: hidden from screen readers, which get the caption instead, and
 * nothing in it can be focused.
 */
import type { CSSProperties } from "react";
import type { Draft } from "./draft";

interface Images {
  logoUrl: string | null;
  logoDarkUrl: string | null;
}

export function BrandPreview({ draft, images, instanceName }: { draft: Draft; images: Images; instanceName: string }) {
  const name = draft.brandName.trim() || instanceName;
  const accent = effectiveAccent(draft);
  return (
    <figure className="bp">
      <figcaption className="bp-caption">
        Preview of the top bar, a page and the sign-in screen with these choices
        {draft.themePolicy === "user" ? "" : `; everyone sees the ${draft.themePolicy} theme`}.
      </figcaption>
      <div className="bp-panes" aria-hidden="true">
        {(["light", "dark"] as const).map((theme) => (
          <Pane
            key={theme}
            theme={theme}
            unused={draft.themePolicy !== "user" && draft.themePolicy !== theme}
            accent={accent[theme]}
            name={name}
            logo={theme === "dark" ? (images.logoDarkUrl ?? images.logoUrl) : images.logoUrl}
            draft={draft}
          />
        ))}
      </div>
    </figure>
  );
}

const HEX = /^#[0-9a-f]{6}$/i;
export const CAIRN_ACCENT = { light: "#2f6f5e", dark: "#7fc8b0" };

function effectiveAccent(d: Draft): { light: string; dark: string } {
  if (d.accentPolicy !== "custom") return CAIRN_ACCENT;
  return {
    light: HEX.test(d.accentLight) ? d.accentLight : CAIRN_ACCENT.light,
    dark: HEX.test(d.accentDark) ? d.accentDark : CAIRN_ACCENT.dark,
  };
}

function Lockup({ name, logo, display }: { name: string; logo: string | null; display: Draft["display"] }) {
  const showLogo = display !== "name" && logo;
  return (
    <span className="bp-lockup">
      {showLogo ? <img src={logo} alt="" /> : <span className="bp-mark">◆</span>}
      {!showLogo || display === "logo-and-name" ? <span className="bp-name">{name}</span> : null}
    </span>
  );
}

function Pane({
  theme,
  unused,
  accent,
  name,
  logo,
  draft,
}: {
  theme: "light" | "dark";
  unused: boolean;
  accent: string;
  name: string;
  logo: string | null;
  draft: Draft;
}) {
  return (
    <div className={`bp-pane bp-${theme}${unused ? " bp-unused" : ""}`} style={{ "--bp-accent": accent } as CSSProperties}>
      <div className="bp-label">
        {theme === "light" ? "Light" : "Dark"}
        {unused ? " · not used" : ""}
      </div>
      <div className="bp-window">
        <div className="bp-topbar">
          <Lockup name={name} logo={logo} display={draft.display} />
          <span className="bp-search">Search…</span>
          <span className="bp-avatar">AK</span>
        </div>
        <div className="bp-page">
          <div className="bp-title">Team handbook</div>
          <p className="bp-text">
            Start with the <span className="bp-link">onboarding checklist</span>, then say hello.
          </p>
          <span className="bp-button">Update</span>
        </div>
      </div>
      <div className={`bp-window bp-signin${draft.signInArrangement === "split" ? " bp-signin-split" : ""}`}>
        {draft.signInArrangement === "split" ? (
          <div className="bp-aside">
            <Lockup name={name} logo={logo} display={draft.display} />
          </div>
        ) : null}
        <div className="bp-card">
          {draft.signInArrangement === "split" ? null : <Lockup name={name} logo={logo} display={draft.display} />}
          <div className="bp-heading">Sign in</div>
          <span className="bp-input" />
          <span className="bp-input" />
          <span className="bp-button bp-wide">Sign in</span>
        </div>
      </div>
    </div>
  );
}
