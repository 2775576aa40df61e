/**
 * The editor's extensions: the server's own schema (src/content/extensions.ts, so whatever the
 * editor writes the server accepts) with code blocks coloured by lowlight, plus what only an
 * editing session needs: undo, drop and gap cursors, a trailing paragraph, the placeholder,
 * pasted and dropped files, the "/" block menu and "@" mentions.
 */
import { Extension, type AnyExtension, type Editor, type Range } from "@tiptap/core";
import Collaboration, { isChangeOrigin } from "@tiptap/extension-collaboration";
import CollaborationCaret from "@tiptap/extension-collaboration-caret";
import { Plugin } from "@tiptap/pm/state";
import CodeBlockLowlight from "@tiptap/extension-code-block-lowlight";
import FileHandler from "@tiptap/extension-file-handler";
import { Dropcursor, Gapcursor, Placeholder, TrailingNode, UndoRedo } from "@tiptap/extensions";
import Suggestion from "@tiptap/suggestion";
import { createElement } from "react";
import { contentExtensions } from "../../../content/extensions";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { SearchHit, User } from "../../api/types";
import { blockItems, filterBlocks, type BlockItem } from "./blocks";
import { lowlight } from "./lowlight";
import { insertPageLink, pageLinkExtensions, pageRow, searchPages, withPageLinkView } from "./page-links";
import { suggestionPopup } from "./suggestion-popup";
import { SuggestionList } from "./SuggestionList";
import type { CollabRoom } from "./collab-provider";

export interface SessionHooks {
  /** Files pasted or dropped (images are uploaded and inserted at `pos`). */
  onFiles(editor: Editor, files: File[], pos?: number): void;
  /** The "/" menu's Image item: open a file picker (absent: no Image item, nowhere to upload). */
  pickImage?(): void;
  /** Ctrl/⌘-Enter: save (or publish). */
  save(): void;
}

/** Ctrl/⌘-Enter saves; without this, StarterKit's hard break would take the key first. */
function saveShortcut(hooks: SessionHooks) {
  return Extension.create({
    name: "saveShortcut",
    priority: 1000,
    addKeyboardShortcuts: () => ({
      "Mod-Enter": () => {
        hooks.save();
        return true;
      },
    }),
  });
}

const blockRow = (item: BlockItem) =>
  createElement(
    "span",
    { className: "suggestion-row" },
    createElement("span", { className: "suggestion-title" }, item.title),
    createElement("span", { className: "suggestion-hint" }, item.hint),
  );

function slashCommand(hooks: SessionHooks) {
  return Extension.create({
    name: "slashCommand",
    addProseMirrorPlugins() {
      return [
        Suggestion<BlockItem>({
          editor: this.editor,
          char: "/",
          startOfLine: false,
          allowSpaces: false,
          items: ({ query }) => filterBlocks(blockItems(hooks.pickImage?.bind(hooks)), query),
          command: ({ editor, range, props }) => props.run(editor, range as Range),
          render: suggestionPopup(SuggestionList as never, (p) => ({
            items: p.items,
            label: "Insert a block",
            empty: "No block matches",
            render: blockRow,
            pick: (item: BlockItem) => p.command(item),
          })),
        }),
      ];
    },
  });
}

const users = () => queryClient.fetchQuery({ queryKey: keys.users, queryFn: () => data(api.GET("/api/users")), staleTime: 60_000 });

/** The "@" menu's rows: people first, then pages (a page picked becomes a link to it). */
type MentionItem = { kind: "person"; user: User } | { kind: "page"; hit: SearchHit };

function withMentions(ext: AnyExtension): AnyExtension {
  if (ext.name !== "mention") return ext;
  return ext.configure({
    suggestion: {
      char: "@",
      items: async ({ query }: { query: string }): Promise<MentionItem[]> => {
        const q = query.toLowerCase();
        const [people, pages] = await Promise.all([users(), q.length >= 2 ? searchPages(query) : Promise.resolve([])]);
        const found = (people as User[])
          .filter((u) => u.displayName.toLowerCase().includes(q) || u.email.toLowerCase().startsWith(q))
          .slice(0, 6);
        return [
          ...found.map((user) => ({ kind: "person" as const, user })),
          ...pages.slice(0, 5).map((hit) => ({ kind: "page" as const, hit })),
        ];
      },
      render: suggestionPopup(SuggestionList as never, (p) => ({
        items: p.items,
        label: "Mention someone or link a page",
        empty: "Nobody and no page by that name",
        render: (item: MentionItem) =>
          item.kind === "page"
            ? pageRow(item.hit)
            : createElement(
                "span",
                { className: "suggestion-row" },
                createElement("span", { className: "suggestion-title" }, item.user.displayName),
                createElement("span", { className: "suggestion-hint" }, item.user.email),
              ),
        pick: (item: MentionItem) =>
          item.kind === "page"
            ? insertPageLink(p.editor, p.range, item.hit)
            : p.command({ id: item.user.id, label: item.user.displayName }),
      })),
    },
  });
}

/**
 * The trailing paragraph, added only for this person's own changes: were every editor to add it
 * when a remote change arrives, the room would get one paragraph per person.
 */
const LocalTrailingNode = TrailingNode.extend({
  addProseMirrorPlugins() {
    return (this.parent?.() ?? []).map(
      (plugin) =>
        new Plugin({
          ...plugin.spec,
          appendTransaction: (trs, oldState, newState) =>
            trs.some((tr) => isChangeOrigin(tr)) ? null : plugin.spec.appendTransaction?.(trs, oldState, newState),
        }),
    );
  },
});

/**
 * Solo: TipTap's own undo. Collaborative: the document is the room's Yjs fragment, undo is
 * Yjs's (each person undoes only their own typing) and everyone's caret is drawn.
 */
function historyAndSync(room: CollabRoom | undefined): AnyExtension[] {
  if (!room) return [UndoRedo, TrailingNode];
  return [
    Collaboration.configure({ document: room.doc, field: "default", provider: room.provider }),
    CollaborationCaret.configure({ provider: room.provider, user: room.user }),
    LocalTrailingNode,
  ];
}

export function editorExtensions(hooks: SessionHooks, room?: CollabRoom): AnyExtension[] {
  const schema = contentExtensions.map((ext) =>
    ext.name === "starterKit" ? ext.configure({ codeBlock: false }) : withPageLinkView(withMentions(ext)),
  );
  return [
    ...schema,
    CodeBlockLowlight.configure({ lowlight, defaultLanguage: null }),
    ...historyAndSync(room),
    Dropcursor.configure({ color: "var(--accent)", width: 2 }),
    Gapcursor,
    Placeholder.configure({ placeholder: "Type / for blocks, @ to mention someone, [[ to link a page, or just start writing" }),
    FileHandler.configure({
      onPaste: (editor, files) => hooks.onFiles(editor, files),
      onDrop: (editor, files, pos) => hooks.onFiles(editor, files, pos),
    }),
    slashCommand(hooks),
    ...pageLinkExtensions(),
    saveShortcut(hooks),
  ];
}
