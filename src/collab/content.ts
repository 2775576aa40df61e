/**
 * Between a room's Yjs XML fragment and a page's ProseMirror JSON (the editor schema of
 * src/content), with y-tiptap, the conversions TipTap's Collaboration extension uses itself.
 */
import type { JSONContent } from "@tiptap/core";
import { Node as PMNode, type NodeType } from "@tiptap/pm/model";
import { prosemirrorJSONToYXmlFragment, updateYFragment, yXmlFragmentToProsemirrorJSON } from "@tiptap/y-tiptap";
import { contentSchema, emptyDocument } from "../content/schema";
import { SERVER_ORIGIN, type Room } from "./room";
import type * as Y from "yjs";

/** Fills an empty fragment with a document (a room's first load). */
export function seedFragment(doc: Y.Doc, fragment: Y.XmlFragment, content: JSONContent): void {
  doc.transact(() => prosemirrorJSONToYXmlFragment(contentSchema, content, fragment), SERVER_ORIGIN);
}

/**
 * The room's working copy as ProseMirror JSON (an empty fragment reads as one empty paragraph),
 * with what the editor schema does not know left out, as the editor itself leaves it out: a
 * client may put any element name, mark or attribute into the fragment, and ProseMirror would
 * throw on the first unknown one (Update answered 500). Values the schema knows but refuses (a
 * link's address) are left for the content check to name.
 */
export function roomContent(room: Room): JSONContent {
  const json = knownOnly(yXmlFragmentToProsemirrorJSON(room.fragment) as JSONContent, contentSchema.topNodeType);
  return json?.content?.length ? json : emptyDocument();
}

/** The node without unknown children, marks or attributes; null when its own type is unknown. */
function knownOnly(node: JSONContent, type: NodeType | undefined): JSONContent | null {
  if (!type) return null;
  const out: JSONContent = { type: node.type };
  if (node.attrs) out.attrs = knownAttrs(node.attrs, type.spec.attrs);
  if (node.text !== undefined) out.text = node.text;
  if (node.content) {
    out.content = [];
    for (const child of node.content) {
      const kept = knownOnly(child, nodeType(child.type));
      if (!kept) continue;
      if (child.marks) {
        const marks = child.marks.flatMap((m) => {
          const markType = Object.hasOwn(contentSchema.marks, m.type) ? contentSchema.marks[m.type] : undefined;
          if (!markType || !type.allowsMarkType(markType)) return [];
          return [m.attrs ? { type: m.type, attrs: knownAttrs(m.attrs, markType.spec.attrs) } : { type: m.type }];
        });
        if (marks.length) kept.marks = marks;
      }
      out.content.push(kept);
    }
  }
  return out;
}

function nodeType(name: string | undefined): NodeType | undefined {
  return name !== undefined && Object.hasOwn(contentSchema.nodes, name) ? contentSchema.nodes[name] : undefined;
}

function knownAttrs(attrs: Record<string, unknown>, known: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(attrs)) if (known && Object.hasOwn(known, key)) out[key] = attrs[key];
  return out;
}

/**
 * Brings the room's working copy to `content` with the smallest change y-tiptap finds (unchanged
 * blocks and text are kept, so the carets in them stay where they are), as one transaction by
 * the server: every client receives it as one update.
 */
export function replaceRoomContent(room: Room, content: JSONContent): void {
  const node = PMNode.fromJSON(contentSchema, content);
  room.doc.transact(() => updateYFragment(room.doc, room.fragment, node, { mapping: new Map(), isOMark: new Map() }), SERVER_ORIGIN);
}
