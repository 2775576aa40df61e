import { useId } from "react";

/** An on/off switch (a checkbox with role=switch) with its label and a hint below. */
export function Switch({
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  disabled?: boolean;
  onChange(on: boolean): void;
}) {
  const id = useId();
  return (
    <div className="switch-row">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <label htmlFor={id}>
        <span className="switch-label">{label}</span>
        {hint ? (
          <span id={`${id}-hint`} className="switch-hint">
            {hint}
          </span>
        ) : null}
      </label>
    </div>
  );
}
