/**
 * One row of the tree: the treeitem (focusable, opens the page) and, beside it for the mouse,
 * "+" and "…". Dragging uses pragmatic-drag-and-drop: the hitbox says whether a drop goes
 * above, below or inside this row, and a line or a tint shows it.
 */
import { combine } from "@atlaskit/pragmatic-drag-and-drop/combine";
import { draggable, dropTargetForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter";
import { attachInstruction, extractInstruction, type Instruction } from "@atlaskit/pragmatic-drag-and-drop-hitbox/tree-item";
import { memo, useEffect, useRef, useState } from "react";
import type { Space } from "../../api/types";
import { ChevronRight, FileText, Plus } from "../../ui/icons";
import type { Row } from "./model";
import { RowActions } from "./RowActions";

export const INDENT = 16;

export interface TreeRowProps {
  row: Row;
  space: Space;
  current: boolean;
  focused: boolean;
  editable: boolean;
  menuOpen: boolean;
  onMenuOpen(id: string | null): void;
  onOpen(row: Row): void;
  onToggle(row: Row): void;
  onFocusRow(id: string): void;
  onNewChild(row: Row): void;
}

export const TreeRow = memo(function TreeRow({
  row,
  space,
  current,
  focused,
  editable: spaceEditable,
  menuOpen,
  onMenuOpen,
  onOpen,
  onToggle,
  onFocusRow,
  onNewChild,
}: TreeRowProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [instruction, setInstruction] = useState<Instruction | null>(null);
  const [dragging, setDragging] = useState(false);
  const { node, level } = row;
  // An Edit restriction that leaves the reader out marks the page (and its subtree) read-only.
  const editable = spaceEditable && !node.readOnly;

  useEffect(() => {
    const element = ref.current;
    if (!element || !editable) return;
    return combine(
      draggable({
        element,
        getInitialData: () => ({ kind: "cairn-page", id: node.id, title: node.title }),
        onDragStart: () => setDragging(true),
        onDrop: () => setDragging(false),
      }),
      dropTargetForElements({
        element,
        // A page cannot go inside itself; what is below it can still be dropped around it.
        canDrop: ({ source }) => source.data.kind === "cairn-page" && source.data.id !== node.id,
        getData: ({ input, element: el }) =>
          attachInstruction(
            { id: node.id },
            {
              input,
              element: el,
              currentLevel: level,
              indentPerLevel: INDENT,
              mode: row.expanded ? "expanded" : row.posInSet === row.setSize ? "last-in-group" : "standard",
              block: ["reparent"],
            },
          ),
        onDrag: ({ self, source }) => setInstruction(source.data.id === node.id ? null : extractInstruction(self.data)),
        onDragLeave: () => setInstruction(null),
        onDrop: () => setInstruction(null),
      }),
    );
  }, [node, level, row.expanded, row.posInSet, row.setSize, editable]);

  const hasChildren = node.children.length > 0;
  const drop = instruction?.type === "instruction-blocked" ? null : instruction?.type;
  return (
    <div
      className={`tree-row${current ? " is-current" : ""}${dragging ? " is-dragging" : ""}${drop === "make-child" ? " drop-inside" : ""}`}
      style={{ paddingLeft: (level - 1) * INDENT + 4 }}
    >
      <div
        ref={ref}
        role="treeitem"
        data-id={node.id}
        tabIndex={focused ? 0 : -1}
        aria-level={level}
        aria-setsize={row.setSize}
        aria-posinset={row.posInSet}
        aria-expanded={hasChildren ? row.expanded : undefined}
        aria-current={current ? "page" : undefined}
        aria-selected={current}
        className="tree-item"
        onFocus={() => onFocusRow(node.id)}
        onClick={() => onOpen(row)}
      >
        <span
          className={`tree-chevron${hasChildren ? "" : " is-leaf"}${row.expanded ? " is-open" : ""}`}
          aria-hidden="true"
          onClick={(e) => {
            if (!hasChildren) return;
            e.stopPropagation();
            onToggle(row);
          }}
        >
          {hasChildren ? <ChevronRight size={14} /> : null}
        </span>
        <span className="tree-icon" aria-hidden="true">
          {node.emoji ?? <FileText size={15} />}
        </span>
        <span className="tree-title">{node.title || "Untitled"}</span>
      </div>
      {editable ? (
        <span className="tree-actions">
          <button
            type="button"
            className="tree-action"
            tabIndex={-1}
            aria-hidden="true"
            title={`New page inside ${node.title}`}
            onClick={() => onNewChild(row)}
          >
            <Plus size={15} />
          </button>
          <RowActions space={space} node={node} menuOpen={menuOpen} onMenuOpen={(o) => onMenuOpen(o ? node.id : null)} />
        </span>
      ) : null}
      {drop === "reorder-above" || drop === "reorder-below" ? (
        <span className={`drop-line drop-${drop}`} style={{ left: (level - 1) * INDENT + 8 }} aria-hidden="true" />
      ) : null}
    </div>
  );
});
