/**
 * Unsaved edits kept in the browser (localStorage), per page, until they are saved or thrown
 * away: a reload, a crash or a closed tab loses nothing.
 */
import type { DocJson } from "../../api/client";

export interface LocalCopy {
  title: string;
  doc: DocJson;
  /** The version the edits started from. */
  base: number;
  savedAt: string;
}

const key = (pageId: string) => `cairn.unsaved.${pageId}`;

export function readLocalCopy(pageId: string): LocalCopy | null {
  try {
    const raw = localStorage.getItem(key(pageId));
    return raw ? (JSON.parse(raw) as LocalCopy) : null;
  } catch {
    return null;
  }
}

export function writeLocalCopy(pageId: string, copy: LocalCopy): void {
  try {
    localStorage.setItem(key(pageId), JSON.stringify(copy));
  } catch {
    // A full storage only loses the safety net, never the editor's content.
  }
}

export function dropLocalCopy(pageId: string): void {
  localStorage.removeItem(key(pageId));
}
