/**
 * Changes from outside waiting for a decision: a bar above the editor ("3 changes from outside
 * (by Ana, 2 minutes ago) · Review · Accept all · Reject all"), a list to settle them one by
 * one from the keyboard, and a small popover with Accept and Reject when the caret is in one.
 */
import type { Editor } from "@tiptap/core";
import { useQuery } from "@tanstack/react-query";
import { useEditorState } from "@tiptap/react";
import { BubbleMenu } from "@tiptap/react/menus";
import { useMemo, useState } from "react";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { User } from "../../api/types";
import { timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { changeAt, listChanges, settle, type TrackedChange } from "./tracked";

function useNames(): (id: string | null) => string {
  const users = useQuery({ queryKey: keys.users, queryFn: () => data(api.GET("/api/users")), staleTime: 60_000 });
  return (id) => ((users.data as User[] | undefined) ?? []).find((u) => u.id === id)?.displayName ?? "someone";
}

/** The pending changes, recomputed only when the document changes. */
export function usePendingChanges(editor: Editor): TrackedChange[] {
  const doc = useEditorState({ editor, selector: ({ editor: e }) => e.state.doc, equalityFn: (a, b) => a === b });
  return useMemo(() => listChanges(doc), [doc]);
}

const snippet = (raw: string) => {
  const text = raw.trim() || raw;
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

function describe(c: TrackedChange): string {
  if (c.inserted && c.deleted) return `“${snippet(c.deleted)}” → “${snippet(c.inserted)}”`;
  return c.inserted ? `Added “${snippet(c.inserted)}”` : `Removed “${snippet(c.deleted)}”`;
}

export function TrackedChangesBar({ editor, changes }: { editor: Editor; changes: TrackedChange[] }) {
  const [reviewing, setReviewing] = useState(false);
  const name = useNames();
  if (changes.length === 0) return null;
  const authors = [...new Set(changes.map((c) => name(c.authorId)))];
  const latest = changes
    .map((c) => c.createdAt)
    .filter((d): d is string => !!d)
    .sort()
    .pop();
  const who =
    `by ${authors.slice(0, 2).join(", ")}${authors.length > 2 ? ` and ${authors.length - 2} more` : ""}` +
    `${latest ? `, ${timeAgo(latest)}` : ""}`;
  return (
    <section className="tracked-bar" aria-label="Changes from outside">
      <div className="tracked-bar-row">
        <p className="tracked-bar-text" role="status">
          <strong>
            {changes.length} change{changes.length === 1 ? "" : "s"} from outside
          </strong>{" "}
          ({who})
        </p>
        <div className="tracked-bar-actions">
          <Button size="sm" variant="ghost" aria-expanded={reviewing} onClick={() => setReviewing(!reviewing)}>
            {reviewing ? "Hide" : "Review"}
          </Button>
          <Button size="sm" onClick={() => settle(editor, false)}>
            Reject all
          </Button>
          <Button size="sm" variant="primary" onClick={() => settle(editor, true)}>
            Accept all
          </Button>
        </div>
      </div>
      {reviewing ? (
        <ul className="tracked-list">
          {changes.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className="link-button tracked-goto"
                onClick={() => editor.chain().focus().setTextSelection(c.ranges[0]!.from).scrollIntoView().run()}
              >
                {describe(c)}
              </button>
              <span className="tracked-list-actions">
                <Button size="sm" variant="ghost" onClick={() => settle(editor, false, c)} aria-label={`Reject: ${describe(c)}`}>
                  Reject
                </Button>
                <Button size="sm" variant="ghost" onClick={() => settle(editor, true, c)} aria-label={`Accept: ${describe(c)}`}>
                  Accept
                </Button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** Accept / Reject next to the change the caret is in. */
export function ChangePopover({ editor }: { editor: Editor }) {
  const name = useNames();
  const current = useEditorState({
    editor,
    selector: ({ editor: e }) => (e.state.selection.empty ? changeAt(listChanges(e.state.doc), e.state.selection.from) : null),
    equalityFn: (a, b) => a?.id === b?.id && a?.ranges.length === b?.ranges.length,
  });
  return (
    <BubbleMenu
      editor={editor}
      pluginKey="trackedChange"
      shouldShow={({ editor: e, from, to }) => from === to && !!changeAt(listChanges(e.state.doc), from)}
      options={{ placement: "bottom-start" }}
    >
      {current ? (
        <div className="bubble-toolbar" role="toolbar" aria-label={`Change by ${name(current.authorId)}`}>
          <span className="tb-label">{name(current.authorId)}</span>
          <button type="button" className="tb-button tb-text" onClick={() => settle(editor, true, current)}>
            Accept
          </button>
          <button type="button" className="tb-button tb-text" onClick={() => settle(editor, false, current)}>
            Reject
          </button>
        </div>
      ) : null}
    </BubbleMenu>
  );
}
