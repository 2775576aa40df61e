import { forwardRef, type ButtonHTMLAttributes } from "react";
import "./button.css";

type Variant = "primary" | "secondary" | "ghost" | "danger";
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: "sm" | "md";
  /** Shows a spinner and refuses clicks while work runs. */
  busy?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = "secondary", size = "md", busy, className, disabled, children, ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type="button"
      className={`btn btn-${variant} btn-${size}${className ? ` ${className}` : ""}`}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <span className="btn-spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
});

/** A square button holding one icon; `label` is what a screen reader says and the tooltip. */
export const IconButton = forwardRef<HTMLButtonElement, ButtonProps & { label: string }>(function IconButton(
  { label, className, children, ...rest },
  ref,
) {
  return (
    <Button ref={ref} variant="ghost" aria-label={label} title={label} className={`btn-icon${className ? ` ${className}` : ""}`} {...rest}>
      {children}
    </Button>
  );
});
