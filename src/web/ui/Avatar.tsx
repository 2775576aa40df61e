/**
 * A person as a small coloured circle with their initials; the name is the accessible label
 * and the tooltip. The colour comes from the person's id, so it is the same everywhere (their
 * avatar, their caret in the editor) and on every visit.
 */
import "./avatar.css";

/** Dark enough that white initials (and white caret labels) read at WCAG AA on them. */
const PALETTE = ["#0b57d0", "#a8327a", "#1d6b3a", "#8e3bb5", "#a14a00", "#00687a", "#b3261e", "#4a5bc4", "#6b5b00", "#2f6f5e"];

export function colorFor(id: string): string {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return PALETTE[(h >>> 0) % PALETTE.length]!;
}

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  const first = Array.from(words[0]!)[0] ?? "";
  const last = words.length > 1 ? (Array.from(words[words.length - 1]!)[0] ?? "") : "";
  return (first + last).toUpperCase();
}

/** `label`: what the circle says to a screen reader and in its tooltip (the name by default). */
export function Avatar({ name, color, label = name, size = 28 }: { name: string; color: string; label?: string; size?: number }) {
  return (
    <span className="person-avatar" role="img" aria-label={label} title={label} style={{ background: color, width: size, height: size, fontSize: size * 0.4 }}>
      <span aria-hidden="true">{initials(name)}</span>
    </span>
  );
}
