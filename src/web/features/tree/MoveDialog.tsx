/**
 * "Move to…": the keyboard's way of dragging a page, and the way to another space. Pick the
 * space, then where in it (the top, or under a page); the page lands last among its new siblings.
 */
import { useState } from "react";
import type { Space, TreeNode } from "../../api/types";
import { Button } from "../../ui/Button";
import { Dialog, DialogActions } from "../../ui/Dialog";
import { useSpaces } from "../spaces/queries";
import { descendantIds, flatten, locate } from "./model";
import { useMovePage } from "./mutations";
import { useTree } from "./queries";

export function MoveDialog({ space, node, onClose }: { space: Space; node: TreeNode; onClose(): void }) {
  const spaces = useSpaces();
  const [spaceId, setSpaceId] = useState(space.id);
  const [parentId, setParentId] = useState<string>("");
  const tree = useTree(spaceId);
  const move = useMovePage();
  const blocked = new Set([node.id, ...descendantIds(node)]);
  const all = new Set<string>();
  const collect = (nodes: TreeNode[]) => nodes.forEach((n) => (all.add(n.id), collect(n.children)));
  collect(tree.data ?? []);
  const rows = flatten(tree.data ?? [], all).filter((r) => !blocked.has(r.node.id));
  const target = spaces.data?.find((s) => s.id === spaceId);
  const submit = () => {
    const parent = parentId || null;
    const siblings = parent ? (locate(tree.data ?? [], parent)?.node.children ?? []) : (tree.data ?? []);
    const parentTitle = parent ? locate(tree.data ?? [], parent)?.node.title : null;
    move.mutate({
      id: node.id,
      title: node.title,
      fromSpaceId: space.id,
      toSpaceId: spaceId,
      parentId: parent,
      index: siblings.filter((s) => s.id !== node.id).length,
      announce: `Moved ${node.title} ${parentTitle ? `under ${parentTitle}` : `to the top of ${target?.name ?? "the space"}`}`,
    });
    onClose();
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Move “${node.title || "Untitled"}”`}
      description="Its pages below move with it."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="field">
          <label htmlFor="move-space">Space</label>
          <select id="move-space" className="input" value={spaceId} onChange={(e) => (setSpaceId(e.target.value), setParentId(""))}>
            {(spaces.data ?? [])
              .filter((s) => !s.archived)
              .map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="move-parent">Put it</label>
          <select id="move-parent" className="input" value={parentId} onChange={(e) => setParentId(e.target.value)}>
            <option value="">At the top of {target?.name ?? "the space"}</option>
            {rows.map((r) => (
              <option key={r.node.id} value={r.node.id}>
                {"\u00a0\u00a0".repeat(r.level - 1)}Under {r.node.title || "Untitled"}
              </option>
            ))}
          </select>
        </div>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary">
            Move
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
