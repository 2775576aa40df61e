/**
 * What can be done to one page of the tree: a menu (also opened from the keyboard with
 * Shift+F10 or the context-menu key on the row), and the dialogs it leads to.
 */
import * as Radix from "@radix-ui/react-dropdown-menu";
import { useState } from "react";
import { useLocation } from "wouter";
import { ApiError } from "../../api/client";
import type { Space, TreeNode } from "../../api/types";
import { useAction } from "../../lib/mutation";
import { pagePath } from "../../lib/slug";
import { Button } from "../../ui/Button";
import { ConfirmDialog, Dialog, DialogActions } from "../../ui/Dialog";
import { EmojiGrid } from "../../ui/EmojiGrid";
import { Copy, Ellipsis, FilePlus, FolderInput, Smile, Trash2 } from "../../ui/icons";
import { useStartPage } from "../page/start-page";
import { descendantIds } from "./model";
import { MoveDialog } from "./MoveDialog";
import { useRowChangeMutation } from "./mutations";

type Open = null | "move" | "copy" | "trash" | "emoji";

export function RowActions({
  space,
  node,
  menuOpen,
  onMenuOpen,
}: {
  space: Space;
  node: TreeNode;
  menuOpen: boolean;
  onMenuOpen(open: boolean): void;
}) {
  const [, navigate] = useLocation();
  const [dialog, setDialog] = useState<Open>(null);
  const [withChildren, setWithChildren] = useState(true);
  const below = descendantIds(node).length;
  const title = node.title || "Untitled";
  const newPage = useStartPage(space);
  const change = useAction(useRowChangeMutation(space.id, node.id), {
    failure: (err) => (err instanceof ApiError ? err.message : String(err)),
    done: (made, c) => {
      setDialog(null);
      if (c.kind === "trash" && window.location.pathname.includes(node.id)) navigate(`/s/${space.key}`);
      if (c.kind === "copy" && made) navigate(pagePath(space.key, made.id, made.title));
    },
    success: (made, c) => (c.kind === "trash" ? `“${title}” moved to the trash` : made ? `Copied as “${made.title}”` : null),
  });
  const { error, setError } = change;
  const trash = () => change.run({ kind: "trash" });
  const setEmoji = (emoji: string | null) => change.run({ kind: "emoji", emoji });
  const copy = () => change.run({ kind: "copy", includeChildren: withChildren });
  return (
    <>
      <Radix.Root open={menuOpen} onOpenChange={onMenuOpen} modal={false}>
        <Radix.Trigger asChild>
          <button type="button" className="tree-action" tabIndex={-1} aria-hidden="true" title="More actions">
            <Ellipsis size={15} />
          </button>
        </Radix.Trigger>
        <Radix.Portal>
          <Radix.Content className="menu" align="start" sideOffset={4} aria-label={`Actions for ${title}`}>
            <Radix.Item className="menu-item" onSelect={() => void newPage.start(node.id)}>
              <span className="menu-icon">
                <FilePlus />
              </span>
              New page inside
            </Radix.Item>
            <Radix.Item className="menu-item" onSelect={() => (setError(null), setDialog("copy"))}>
              <span className="menu-icon">
                <Copy />
              </span>
              Copy…
            </Radix.Item>
            <Radix.Item className="menu-item" onSelect={() => setDialog("move")}>
              <span className="menu-icon">
                <FolderInput />
              </span>
              Move to…
            </Radix.Item>
            <Radix.Item className="menu-item" onSelect={() => setDialog("emoji")}>
              <span className="menu-icon">
                <Smile />
              </span>
              Emoji…
            </Radix.Item>
            <Radix.Separator className="menu-separator" />
            <Radix.Item className="menu-item menu-item-danger" onSelect={() => (setError(null), setDialog("trash"))}>
              <span className="menu-icon">
                <Trash2 />
              </span>
              Move to trash
            </Radix.Item>
          </Radix.Content>
        </Radix.Portal>
      </Radix.Root>
      {dialog === "move" ? <MoveDialog space={space} node={node} onClose={() => setDialog(null)} /> : null}
      <Dialog
        open={dialog === "emoji"}
        onOpenChange={(o) => !o && setDialog(null)}
        title={`Emoji for “${title}”`}
        description="Shown before its title in the tree and on the page."
      >
        <EmojiGrid onPick={(e) => void setEmoji(e)} />
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <DialogActions>
          {node.emoji ? <Button onClick={() => void setEmoji(null)}>Remove emoji</Button> : null}
          <Button onClick={() => setDialog(null)}>Cancel</Button>
        </DialogActions>
      </Dialog>
      <Dialog
        open={dialog === "copy"}
        onOpenChange={(o) => !o && setDialog(null)}
        title={`Copy “${title}”`}
        description="The copy starts a fresh history, next to the original."
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void copy();
          }}
        >
          {below ? (
            <label className="check-row">
              <input type="checkbox" checked={withChildren} onChange={(e) => setWithChildren(e.target.checked)} />{" "}
              {`Also copy the ${below} page${below === 1 ? "" : "s"} below it`}
            </label>
          ) : null}
          {error ? (
            <p className="form-error" role="alert">
              {error}
            </p>
          ) : null}
          <DialogActions>
            <Button onClick={() => setDialog(null)}>Cancel</Button>
            <Button type="submit" variant="primary">
              Copy
            </Button>
          </DialogActions>
        </form>
      </Dialog>
      <ConfirmDialog
        open={dialog === "trash"}
        onOpenChange={(o) => !o && setDialog(null)}
        title="Move to the trash?"
        description={
          `“${title}”${below ? ` and the ${below} page${below === 1 ? "" : "s"} below it` : ""} will go to ` +
          `the space's trash. You can restore ${below ? "them" : "it"} from there.`
        }
        confirmLabel="Move to trash"
        error={error}
        onConfirm={() => void trash()}
      />
    </>
  );
}
