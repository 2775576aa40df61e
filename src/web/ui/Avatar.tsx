/**
 * A person as a small circle: their uploaded picture when they have one (`src`, the avatarUrl
 * the API gives, which changes with each new picture), else their initials on a colour. The
 * name is the accessible label and the tooltip. The colour comes from the person's id, so it is
 * the same everywhere (their avatar, their caret in the editor) and on every visit, unless they
 * chose one (avatarVariant 1–7, PUT /api/media/avatars/me/variant).
 */
import { useState } from "react";
import { PALETTE, personColor } from "../../content/person-color";
import "./avatar.css";

/** The colour from the id (content/person-color.ts: the server colours carets with it too). */
export const colorFor = personColor;

/** The colours a person may choose for their generated avatar: variant v (1–7) is CHOSEN_COLORS[v - 1]. */
export const CHOSEN_COLORS = PALETTE.slice(0, 7);

/** The generated avatar's colour: the chosen one (variant 1–7), else the one from the id (variant 0). */
export function avatarColor(id: string, variant: number | null | undefined): string {
  return variant && variant > 0 && variant <= CHOSEN_COLORS.length ? CHOSEN_COLORS[variant - 1]! : colorFor(id);
}

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  const first = Array.from(words[0]!)[0] ?? "";
  const last = words.length > 1 ? (Array.from(words[words.length - 1]!)[0] ?? "") : "";
  return (first + last).toUpperCase();
}

/**
 * `label`: what the circle says to a screen reader and in its tooltip (the name by default);
 * `src`: the uploaded picture, or null for the initials (also shown if the picture fails to load).
 */
export function Avatar({
  name,
  color,
  label = name,
  size = 28,
  src,
}: {
  name: string;
  color: string;
  label?: string;
  size?: number;
  src?: string | null;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const picture = src && failed !== src ? src : null;
  return (
    <span
      className={`person-avatar${picture ? " has-picture" : ""}`}
      role="img"
      aria-label={label}
      title={label}
      style={{ background: color, width: size, height: size, fontSize: size * 0.4 }}
    >
      {picture ? (
        <img src={picture} alt="" width={size} height={size} draggable={false} onError={() => setFailed(picture)} />
      ) : (
        <span aria-hidden="true">{initials(name)}</span>
      )}
    </span>
  );
}
