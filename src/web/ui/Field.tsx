import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import "./field.css";

interface FieldProps {
  label: string;
  /** Shown under the input; an error replaces it and is announced. */
  hint?: ReactNode;
  error?: string | null;
}

export function TextField({ label, hint, error, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const note = `${id}-note`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={error || hint ? note : undefined} {...input} />
      {error ? <p id={note} className="field-error" role="alert">{error}</p> : hint ? <p id={note} className="field-hint">{hint}</p> : null}
    </div>
  );
}

export function TextAreaField({ label, hint, error, ...input }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  const note = `${id}-note`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={error || hint ? note : undefined} {...input} />
      {error ? <p id={note} className="field-error" role="alert">{error}</p> : hint ? <p id={note} className="field-hint">{hint}</p> : null}
    </div>
  );
}

/** An error about the whole form (not one field), shown above its buttons. */
export function FormError({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return <p className="form-error" role="alert">{error}</p>;
}
