/**
 * A person's colour from their account id: their generated avatar and their caret in the editor
 * use it, in the browser and on the server alike (the server stamps it on the carets it hands
 * out, so nobody can wear somebody else's colour). Imports nothing: the reading bundle has it.
 */

/** Dark enough that white initials (and white caret labels) read at WCAG AA on them. */
export const PALETTE = ["#0b57d0", "#a8327a", "#1d6b3a", "#8e3bb5", "#a14a00", "#00687a", "#b3261e", "#4a5bc4", "#6b5b00", "#2f6f5e"];

export function personColor(id: string): string {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return PALETTE[(h >>> 0) % PALETTE.length]!;
}
