/**
 * Someone saved the page while it was being edited (409 version_conflict). Both versions are
 * shown side by side, the blocks that differ marked; the person keeps theirs on top, takes the
 * other's, or copies the other's blocks into their own. Nothing is lost either way: a saved
 * version stays in the history, unsaved text stays in the editor or its local copy.
 */
import type { Editor } from "@tiptap/core";
import { useState } from "react";
import { parseDoc, type DocJson } from "../../api/client";
import type { Page } from "../../api/types";
import { timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { Dialog, DialogActions } from "../../ui/Dialog";
import { DocumentView } from "../page/render/DocumentView";
import { alignBlocks } from "./block-diff";

export interface ConflictChoice {
  keepMine(): void;
  takeTheirs(): void;
}

export function ConflictDialog({
  editor,
  theirs,
  busy,
  onClose,
  choice,
}: {
  editor: Editor;
  theirs: Page;
  busy: boolean;
  onClose(): void;
  choice: ConflictChoice;
}) {
  const [, setCopies] = useState(0);
  const aligned = alignBlocks(editor.getJSON() as DocJson, parseDoc(theirs.contentJson));
  const copyIn = (block: DocJson, index: number) => {
    const doc = editor.state.doc;
    let pos = 0;
    for (let i = 0; i < Math.min(index, doc.childCount); i++) pos += doc.child(i).nodeSize;
    editor.chain().insertContentAt(pos, block).run();
    setCopies((n) => n + 1);
  };
  const changed = aligned.filter((b) => b.side !== "both").length;
  return (
    <Dialog
      open
      wide
      onOpenChange={(open) => !open && onClose()}
      title="Someone else saved this page while you were editing"
      description={
        `Version ${theirs.currentVersionNumber} was saved ${timeAgo(theirs.updatedAt)}. ${changed} ` +
        `block${changed === 1 ? " differs" : "s differ"} from yours. Your text is safe: choose how to go on.`
      }
    >
      <div className="conflict-columns">
        <section aria-label="Their version">
          <h3>Their version {theirs.title !== undefined ? `· “${theirs.title}”` : ""}</h3>
          {aligned
            .filter((b) => b.side !== "mine")
            .map((b, i) => (
              <div key={i} className={`conflict-block${b.side === "theirs" ? " conflict-theirs" : ""}`}>
                <DocumentView doc={{ type: "doc", content: [b.block] }} />
                {b.side === "theirs" ? (
                  <Button size="sm" onClick={() => copyIn(b.block, b.insertAt)}>
                    Copy into mine
                  </Button>
                ) : null}
              </div>
            ))}
        </section>
        <section aria-label="Your version">
          <h3>Your version</h3>
          {aligned
            .filter((b) => b.side !== "theirs")
            .map((b, i) => (
              <div key={i} className={`conflict-block${b.side === "mine" ? " conflict-mine" : ""}`}>
                <DocumentView doc={{ type: "doc", content: [b.block] }} />
              </div>
            ))}
        </section>
      </div>
      <DialogActions>
        <Button onClick={choice.takeTheirs}>Take theirs</Button>
        <Button variant="primary" busy={busy} onClick={choice.keepMine}>
          Keep mine (save on top)
        </Button>
      </DialogActions>
    </Dialog>
  );
}
