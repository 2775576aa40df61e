/**
 * One theme's accent: a colour picker and its #rrggbb text side by side, and under them the
 * server's contrast verdict (accent-preview): the ratios against what the accent meets, and when
 * it falls short of WCAG AA, the nearest colour that passes with a button to use it.
 */
import { useId } from "react";
import { Button } from "../../../ui/Button";
import { CircleCheck, TriangleAlert } from "../../../ui/icons";
import type { Verdict } from "./queries";
import { HEX_COLOUR_LENGTH } from "../../../../common/limits";

const HEX = /^#[0-9a-f]{6}$/i;

export function AccentField({
  theme,
  value,
  onChange,
  verdict,
  error,
}: {
  theme: "light" | "dark";
  value: string;
  onChange(value: string): void;
  verdict: Verdict | null | undefined;
  error?: string | null;
}) {
  const id = useId();
  const label = theme === "light" ? "Accent in the light theme" : "Accent in the dark theme";
  const whole = HEX.test(value);
  const current = verdict && whole && verdict.colour === value.toLowerCase() ? verdict : null;
  const note = `${id}-note`;
  return (
    <div className="bf-accent">
      <label htmlFor={id}>{label}</label>
      <div className="bf-accent-row">
        <input
          type="color"
          className="bf-swatch"
          aria-label={`${label}: colour picker`}
          value={whole ? value.toLowerCase() : "#000000"}
          onChange={(e) => onChange(e.target.value)}
        />
        <input
          id={id}
          className="input bf-hex"
          value={value}
          onChange={(e) => onChange(e.target.value.trim())}
          spellCheck={false}
          autoComplete="off"
          maxLength={HEX_COLOUR_LENGTH}
          aria-invalid={error || (whole && current && !current.passesAA) || (!whole && value !== "") ? true : undefined}
          aria-describedby={note}
        />
      </div>
      <div id={note} className="bf-verdict" aria-live="polite">
        {error ? (
          <p className="field-error">{error}</p>
        ) : !whole ? (
          <p className="field-hint">Write the colour as # and six hex digits, e.g. #2f6f5e, or use the picker.</p>
        ) : !current ? (
          <p className="field-hint">Checking contrast…</p>
        ) : current.passesAA ? (
          <p className="bf-pass">
            <CircleCheck size={16} aria-hidden="true" /> Passes WCAG AA: {ratios(current)}.
          </p>
        ) : (
          <Failing verdict={current} onUse={() => onChange(current.suggestion)} />
        )}
      </div>
    </div>
  );
}

const ratios = (v: Verdict) => v.checks.map((c) => `${c.ratio.toFixed(1)}:1 against the ${c.against}`).join(", ");

function Failing({ verdict, onUse }: { verdict: Verdict; onUse(): void }) {
  const worst = verdict.checks.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  return (
    <div className="bf-fail">
      <p className="field-error">
        <TriangleAlert size={16} aria-hidden="true" /> Too little contrast for WCAG AA: {worst.ratio.toFixed(1)}:1 against the{" "}
        {worst.against} (at least 4.5:1 is needed), so text in this colour would be hard to read.
      </p>
      <div className="bf-suggest">
        <span className="bf-chip" style={{ background: verdict.suggestion }} aria-hidden="true" />
        <span>
          Nearest that passes: <code>{verdict.suggestion}</code>
        </span>
        <Button size="sm" onClick={onUse}>
          Use suggested
        </Button>
      </div>
    </div>
  );
}
