/** A set of radio cards under a legend: one choice, each with a short line saying what it does. */
export function Choices<T extends string>({
  legend,
  name,
  value,
  onChange,
  options,
}: {
  legend: string;
  name: string;
  value: T;
  onChange(value: T): void;
  options: Array<[T, string, string]>;
}) {
  return (
    <fieldset className="bf-choices">
      <legend>{legend}</legend>
      <div className="bf-choice-row">
        {options.map(([v, label, hint]) => (
          <label key={v} className="bf-choice">
            <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} />
            <span>
              <span className="bf-choice-label">{label}</span>
              <span className="bf-choice-hint">{hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
