import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import "./field.css";

interface FieldProps {
  label: string;
  /** Shown under the input; an error replaces it and is announced. */
  hint?: ReactNode;
  error?: string | null;
}

/** The label, the control (given the props that tie it to them) and the hint or error. */
function Field({
  label,
  hint,
  error,
  control,
}: FieldProps & { control(props: { id: string; className: string; "aria-invalid"?: true; "aria-describedby"?: string }): ReactNode }) {
  const id = useId();
  const note = `${id}-note`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control({ id, className: "input", "aria-invalid": error ? true : undefined, "aria-describedby": error || hint ? note : undefined })}
      {error ? (
        <p id={note} className="field-error" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={note} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function TextField({ label, hint, error, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return <Field label={label} hint={hint} error={error} control={(tie) => <input {...tie} {...input} />} />;
}

export function TextAreaField({ label, hint, error, ...input }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <Field label={label} hint={hint} error={error} control={(tie) => <textarea {...tie} {...input} />} />;
}

/** An error about the whole form (not one field), shown above its buttons. */
export function FormError({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {error}
    </p>
  );
}
