/**
 * How a person named by an imported archive, but credited to no account here, is shown: the
 * item belongs to whoever imported it, and the name the archive gave is text beside it
 * (docs/decisions.md, "Imports credit accounts only for those who may act for others").
 */
export const importedName = (name: string) => `${name} (imported)`;
