/**
 * Update refused because of a link (the server names it in `link`: its text and address): the
 * editor selects that link and scrolls to it, so the person is taken to what to change; the
 * link toolbar that opens on the selection edits or removes it.
 */
import type { Editor } from "@tiptap/core";

export interface RefusedLink {
  text: string;
  href: string;
}

export function refusedLinkOf(body: Record<string, unknown>): RefusedLink | null {
  const link = body.link as Partial<RefusedLink> | undefined;
  return link && typeof link.href === "string" ? { text: String(link.text ?? ""), href: link.href } : null;
}

/** Selects the first piece of text linked to `link.href` (its text preferred); false when none. */
export function selectRefusedLink(editor: Editor, link: RefusedLink): boolean {
  let best: { from: number; to: number } | null = null;
  editor.state.doc.descendants((node, pos) => {
    if (best && best.to - best.from === link.text.length) return false;
    if (!node.isText) return true;
    if (!node.marks.some((m) => m.type.name === "link" && m.attrs.href === link.href)) return false;
    if (!best || node.text === link.text) best = { from: pos, to: pos + node.nodeSize };
    return false;
  });
  if (!best) return false;
  editor.chain().focus().setTextSelection(best).scrollIntoView().run();
  return true;
}
