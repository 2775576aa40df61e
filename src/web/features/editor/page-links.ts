/**
 * Page links in the editor (content/page-links.ts): the node drawn with its page's current
 * title, the `[[` page search, and pasting the address of a page of this wiki (on any host name
 * it is reached by) as a link to the page. Page search is the search API's (titles match on
 * fragments), limited to what the writer may read.
 */
import { Extension, type AnyExtension, type Editor, type Range } from "@tiptap/core";
import { Plugin, PluginKey } from "@tiptap/pm/state";
import Suggestion from "@tiptap/suggestion";
import { createElement } from "react";
import { pageHref, pageOfPastedUrl, UNSEEN_PAGE } from "../../../content/page-links";
import { api, data } from "../../api/client";
import { queryClient } from "../../api/query-client";
import type { SearchHit } from "../../api/types";
import { linkKeys, linkTarget } from "../page/links";
import { suggestionPopup } from "./suggestion-popup";
import { SuggestionList } from "./SuggestionList";

/** Pages whose title or words match, best first (at most 8), for the menus. */
export async function searchPages(query: string): Promise<SearchHit[]> {
  const q = query.trim();
  if (!q) return [];
  try {
    const hits = await queryClient.fetchQuery({
      queryKey: ["pageSearch", q],
      queryFn: () => data(api.GET("/api/search", { params: { query: { q } } })),
      staleTime: 10_000,
    });
    return (hits as SearchHit[]).slice(0, 8);
  } catch {
    return [];
  }
}

/** Inserts a link to the page (and a space after it), remembering its title for the node view. */
export function insertPageLink(editor: Editor, range: Range, hit: Pick<SearchHit, "pageId" | "title" | "spaceKey" | "spaceId" | "space">) {
  const id = hit.pageId.toLowerCase();
  if (!queryClient.getQueryData(linkKeys.title(id))) {
    queryClient.setQueryData(linkKeys.title(id), {
      id,
      title: hit.title,
      emoji: null,
      spaceId: hit.spaceId,
      spaceKey: hit.spaceKey,
      spaceName: hit.space,
    });
  }
  editor
    .chain()
    .focus()
    .deleteRange(range)
    .insertContent([
      { type: "pageLink", attrs: { pageId: id } },
      { type: "text", text: " " },
    ])
    .run();
}

export const pageRow = (hit: SearchHit) =>
  createElement(
    "span",
    { className: "suggestion-row" },
    createElement("span", { className: "suggestion-title" }, hit.title.trim() || "Untitled"),
    createElement("span", { className: "suggestion-hint" }, `Page in ${hit.space}`),
  );

/** `[[`: a page search under the caret; Enter links the page. */
function pageSuggestion() {
  return Extension.create({
    name: "pageLinkSuggestion",
    addProseMirrorPlugins() {
      return [
        Suggestion<SearchHit>({
          editor: this.editor,
          pluginKey: new PluginKey("pageLinkSuggestion"),
          char: "[[",
          allowSpaces: true,
          allowedPrefixes: null,
          items: ({ query }) => searchPages(query.replace(/\]+$/, "")),
          command: ({ editor, range, props }) => insertPageLink(editor, range as Range, props),
          render: suggestionPopup(SuggestionList as never, (p) => ({
            items: p.items,
            label: "Link to a page",
            empty: p.query.trim() ? "No page by that name" : "Type a page title",
            render: pageRow,
            pick: (hit: SearchHit) => p.command(hit),
          })),
        }),
      ];
    },
  });
}

/** A pasted address of a page: a link to it (over the selected words, or as the page's title). */
function pastedPageAddress() {
  return Extension.create({
    name: "pastedPageAddress",
    addProseMirrorPlugins() {
      const editor = this.editor;
      return [
        new Plugin({
          key: new PluginKey("pastedPageAddress"),
          props: {
            handlePaste(_view, event) {
              const text = event.clipboardData?.getData("text/plain") ?? "";
              const page = pageOfPastedUrl(text);
              if (!page || editor.isActive("codeBlock") || editor.isActive("code")) return false;
              const { from, to, empty } = editor.state.selection;
              if (!empty)
                return editor
                  .chain()
                  .focus()
                  .setLink({ href: pageHref(page.pageId, page.fragment) })
                  .run();
              void linkTarget(page.pageId);
              return editor
                .chain()
                .focus()
                .insertContentAt({ from, to }, [
                  { type: "pageLink", attrs: { pageId: page.pageId } },
                  { type: "text", text: " " },
                ])
                .run();
            },
          },
        }),
      ];
    },
  });
}

/** The node as the editor draws it: the page's current title, or UNSEEN_PAGE. */
export function withPageLinkView(ext: AnyExtension): AnyExtension {
  if (ext.name !== "pageLink") return ext;
  return (ext as AnyExtension & { extend: (c: object) => AnyExtension }).extend({
    addNodeView() {
      return ({ node }: { node: { attrs: { pageId?: string | null } } }) => {
        const dom = document.createElement("a");
        dom.className = "page-link page-link-loading";
        dom.dataset.type = "pageLink";
        dom.contentEditable = "false";
        dom.textContent = "…";
        const id = String(node.attrs.pageId ?? "").toLowerCase();
        dom.dataset.pageId = id;
        void linkTarget(id).then(
          (page) => {
            dom.className = page ? "page-link" : "page-link page-link-unseen";
            dom.textContent = page ? page.title.trim() || "Untitled" : UNSEEN_PAGE;
            if (page) dom.title = `${page.title} (${page.spaceName})`;
          },
          () => {
            dom.className = "page-link page-link-unseen";
            dom.textContent = UNSEEN_PAGE;
          },
        );
        return { dom };
      };
    },
  });
}

export const pageLinkExtensions = (): AnyExtension[] => [pageSuggestion(), pastedPageAddress()];
