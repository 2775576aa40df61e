/**
 * Label names: letters and digits of any script, folded to one stored form so that names which
 * read the same are one label. The stored form is also what people see, so the fold keeps
 * spelling (ß stays ß) and only removes differences of case and encoding.
 */
import { invalid } from "../platform/errors";
import { LABEL_NAME_MAX } from "../common/limits";

export { LABEL_NAME_MAX };

export const LABEL_NAME_RULE =
  `must be 1 to ${LABEL_NAME_MAX} characters: letters or digits of any script, '.', '_' or '-', starting with a letter or digit ` +
  "(no spaces, symbols, emoji or invisible characters)";

/**
 * Checked on the folded form, the one stored. Combining marks (Mn, Mc) may follow a letter, as
 * Devanagari, Thai and decomposed accents need; enclosing marks (Me: the keycap of 1️⃣) may not.
 * Default-ignorable code points are left out everywhere: variation selectors (❤️), joiners and
 * Hangul fillers are letters or marks that show as nothing, so two labels would look the same.
 * Emoji are symbols (So, Sk), so they are refused with every other symbol and punctuation mark.
 */
const FIRST = String.raw`[\p{L}\p{N}]--\p{Default_Ignorable_Code_Point}`;
const REST = String.raw`[\p{L}\p{N}\p{Mn}\p{Mc}._\-]--\p{Default_Ignorable_Code_Point}`;
const NAME_PATTERN = new RegExp(`^[${FIRST}][${REST}]*$`, "v");

/**
 * NFKC, lower case, NFKC again (lower-casing can leave a form NFKC would change):
 *   - NFKC makes fullwidth ＡＢＣ, the Kelvin sign and ligatures their plain letters, and a
 *     decomposed é the composed one;
 *   - toLowerCase, not toLocaleLowerCase: the server's locale must not decide which label a
 *     name is. It is not full case folding either (that would store "strasse" for "Straße");
 *   - every sigma is lower-cased by its place in the word (σ inside, ς at the end), so ΟΔΟΣ,
 *     Οδος and a hand-typed οδοσ are one label, spelt οδος;
 *   - İ becomes i (as Turkish lower-cases it) instead of i + U+0307 COMBINING DOT ABOVE;
 *     without a locale, I is i and the dotless ı stays a letter of its own.
 */
export function foldLabelName(name: string): string {
  const lowered = name
    .normalize("NFKC")
    .replace(/[σς]/g, "Σ")
    .toLowerCase()
    .replace(/i\u0307/g, "i");
  return lowered.normalize("NFKC");
}

/**
 * The stored form of a name as typed (a body field or a path segment), or a 400 on `name`.
 * Nothing is trimmed: a space anywhere is refused. A lone surrogate matches no class, so it is
 * refused too.
 */
export function normaliseLabelName(name: string): string {
  const folded = foldLabelName(name);
  // Counted in code points, so 𠀀 is one character like a, not two UTF-16 units.
  const length = [...folded].length;
  if (length < 1 || length > LABEL_NAME_MAX || !NAME_PATTERN.test(folded)) throw invalid("name", LABEL_NAME_RULE);
  return folded;
}
