/**
 * The toolbar on a text selection: marks and a link. Its state comes from useEditorState, so
 * typing elsewhere does not re-render it.
 */
import type { Editor } from "@tiptap/core";
import { useEditorState } from "@tiptap/react";
import { BubbleMenu } from "@tiptap/react/menus";
import { useContext, useRef, useState } from "react";
import type { SearchHit } from "../../api/types";
import { pageHref, pageOfPastedUrl } from "../../../content/page-links";
import { safeHref } from "../page/render/safe-url";
import { LinkPageResults, looksLikeAddress } from "./LinkPageResults";
import type { TextAnchor } from "../page-panel/anchors";
import { CommentOnSelection } from "../page-panel/comment-on-selection";
import { menuOptions } from "./floating";

const MARKS: Array<[string, string, string]> = [
  ["bold", "B", "Bold (Ctrl+B)"],
  ["italic", "I", "Italic (Ctrl+I)"],
  ["underline", "U", "Underline (Ctrl+U)"],
  ["strike", "S", "Strikethrough"],
  ["code", "</>", "Inline code"],
  ["highlight", "H", "Highlight"],
];

/** Characters of context either side of a quote (as the reading view's anchors keep). */
const CONTEXT = 24;

/**
 * The selection as a text quote. The text is joined without separators between blocks, as the
 * reading view's text nodes are, so the comment is found again there.
 */
function anchorOfEditorSelection(editor: Editor): TextAnchor | null {
  const { from, to } = editor.state.selection;
  const doc = editor.state.doc;
  const quote = doc.textBetween(from, to);
  if (!quote.trim()) return null;
  return {
    quote: quote.slice(0, 2000),
    prefix: doc.textBetween(0, from).slice(-CONTEXT),
    suffix: doc.textBetween(to, doc.content.size).slice(0, CONTEXT),
  };
}

/** Above the selection, below it when there is no room (floating.ts). */
const OPTIONS = menuOptions("top", ["bottom"]);
const onText = ({ editor, from, to }: { editor: Editor; from: number; to: number }) =>
  from !== to && !editor.isActive("codeBlock") && !editor.isActive("image");

export function BubbleToolbar({ editor }: { editor: Editor }) {
  const commentOn = useContext(CommentOnSelection);
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      Object.fromEntries([...MARKS.map(([m]) => [m, e.isActive(m)]), ["link", e.isActive("link")]]) as Record<string, boolean>,
  });
  const [linking, setLinking] = useState(false);
  const [href, setHref] = useState("");
  const [error, setError] = useState<string | null>(null);
  const firstPage = useRef<SearchHit | null>(null);
  const applyLink = () => {
    // A page of this wiki, on whatever host name it was copied from, is linked by id.
    const page = pageOfPastedUrl(href);
    const titled = !page && href.trim() && !looksLikeAddress(href) ? firstPage.current : null;
    const url = page ? pageHref(page.pageId, page.fragment) : titled ? pageHref(titled.pageId) : href.trim();
    // Stored as a reader's browser would follow it: "//host/x" becomes "https://host/x".
    const safe = safeHref(url);
    if (!url) editor.chain().focus().unsetLink().run();
    else if (!safe) return setError("Use a web address (https://…), mailto: or a path on this wiki.");
    else editor.chain().focus().extendMarkRange("link").setLink({ href: safe }).run();
    setLinking(false);
    setError(null);
  };
  return (
    <BubbleMenu editor={editor} shouldShow={onText} options={OPTIONS}>
      <div className="bubble-toolbar" role="toolbar" aria-label="Text formatting">
        {linking ? (
          <form
            className="link-form"
            onSubmit={(e) => {
              e.preventDefault();
              applyLink();
            }}
          >
            <input
              className="input"
              aria-label="Link address or page title"
              placeholder="https://… or a page title"
              value={href}
              autoFocus
              onChange={(e) => setHref(e.target.value)}
              onKeyDown={(e) => e.key === "Escape" && setLinking(false)}
            />
            <button type="submit" className="tb-button">
              Apply
            </button>
            <LinkPageResults
              query={href}
              first={firstPage}
              onPick={(hit) => {
                editor
                  .chain()
                  .focus()
                  .extendMarkRange("link")
                  .setLink({ href: pageHref(hit.pageId) })
                  .run();
                setLinking(false);
                setError(null);
              }}
            />
            {error ? (
              <span className="link-error" role="alert">
                {error}
              </span>
            ) : null}
          </form>
        ) : (
          <>
            {MARKS.map(([mark, glyph, label]) => (
              <button
                key={mark}
                type="button"
                className={`tb-button tb-${mark}`}
                aria-label={label}
                title={label}
                aria-pressed={active[mark]}
                onClick={() => editor.chain().focus().toggleMark(mark).run()}
              >
                {glyph}
              </button>
            ))}
            <button
              type="button"
              className="tb-button"
              aria-pressed={active.link}
              aria-label="Link"
              title="Link"
              onClick={() => {
                setHref((editor.getAttributes("link").href as string | undefined) ?? "");
                setLinking(true);
              }}
            >
              Link
            </button>
            {commentOn ? (
              <button
                type="button"
                className="tb-button"
                title="Comment on this passage"
                onClick={() => {
                  const anchor = anchorOfEditorSelection(editor);
                  if (!anchor) return;
                  // The passage now lives in the comment's draft: the selection (and this toolbar) goes.
                  editor.commands.setTextSelection(editor.state.selection.to);
                  commentOn(anchor);
                }}
              >
                Comment
              </button>
            ) : null}
          </>
        )}
      </div>
    </BubbleMenu>
  );
}
