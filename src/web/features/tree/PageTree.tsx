/**
 * The sidebar's page tree (WAI-ARIA tree): open branches flattened into rows and drawn by a
 * virtual list, so a space of thousands of pages draws only what is on screen. One row is in
 * the tab order; arrows, Home/End, typing a title's first letters, * and Enter move and open;
 * Shift+F10 opens a row's menu; Alt+Shift+↑/↓ moves a page among its siblings.
 */
import { monitorForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter";
import { extractInstruction } from "@atlaskit/pragmatic-drag-and-drop-hitbox/tree-item";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLocation } from "wouter";
import type { Space, TreeNode } from "../../api/types";
import { pagePath } from "../../lib/slug";
import { NewPageButton } from "../page/NewPageButton";
import { useStartPage } from "../page/start-page";
import { flatten, locate, type Row } from "./model";
import { setAnnouncer, useMovePage } from "./mutations";
import { ancestorsOf, useTree } from "./queries";
import { TreeRow } from "./TreeRow";
import { TreeSkeleton } from "./TreeSkeleton";
import { useOpenBranches } from "./useOpenBranches";
import "./tree.css";

const ROW_HEIGHT = 30;

export function PageTree({ space, currentPageId }: { space: Space; currentPageId?: string }) {
  const tree = useTree(space.id);
  // The space's answer says whether the caller may change it (false for View only, archived
  // spaces and visitors): rows offer no "+", "…", menu key, dragging or keyboard moves then.
  const editable = space.canEdit;
  const newPage = useStartPage(space);
  const [, navigate] = useLocation();
  const above = useMemo(
    () =>
      ancestorsOf(tree.data, currentPageId ?? "")
        .slice(0, -1)
        .map((n) => n.id),
    [tree.data, currentPageId],
  );
  const { open, toggle } = useOpenBranches(space.id, above);
  const rows = useMemo(() => flatten(tree.data ?? [], open), [tree.data, open]);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [menuFor, setMenuFor] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const scrollRef = useRef<HTMLDivElement>(null);
  const typed = useRef({ text: "", at: 0 });
  const { mutate: movePage } = useMovePage();
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  useEffect(() => {
    setAnnouncer(setAnnouncement);
    return () => setAnnouncer(null);
  }, []);
  const tabbable = rows.some((r) => r.node.id === focusedId)
    ? focusedId
    : (rows.find((r) => r.node.id === currentPageId) ?? rows[0])?.node.id;

  const focusRow = useCallback(
    (index: number) => {
      const row = rows[Math.max(0, Math.min(index, rows.length - 1))];
      if (!row) return;
      setFocusedId(row.node.id);
      virtual.scrollToIndex(rows.indexOf(row), { align: "auto" });
      focusWhenDrawn(scrollRef, row.node.id);
    },
    [rows, virtual],
  );
  const openPage = useCallback((row: Row) => navigate(pagePath(space.key, row.node.id, row.node.title)), [navigate, space.key]);
  const moveAmongSiblings = (row: Row, delta: number) => {
    const place = locate(tree.data ?? [], row.node.id);
    if (!place) return;
    const index = place.index + delta;
    if (index < 0 || index >= place.siblings.length) return;
    movePage({
      id: row.node.id,
      title: row.node.title,
      fromSpaceId: space.id,
      toSpaceId: space.id,
      parentId: place.parentId,
      index,
      announce: `${row.node.title} moved ${delta < 0 ? "up" : "down"}, now ${index + 1} of ${place.siblings.length}`,
    });
    focusWhenDrawn(scrollRef, row.node.id);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const i = rows.findIndex((r) => r.node.id === focusedId);
    const row = rows[i];
    if (!row) return;
    const key = e.key;
    const rowEditable = editable && !row.node.readOnly;
    if (e.altKey && e.shiftKey && (key === "ArrowUp" || key === "ArrowDown"))
      rowEditable && moveAmongSiblings(row, key === "ArrowUp" ? -1 : 1);
    else if ((e.shiftKey && key === "F10") || key === "ContextMenu") rowEditable && setMenuFor(row.node.id);
    else if (key === "ArrowDown") focusRow(i + 1);
    else if (key === "ArrowUp") focusRow(i - 1);
    else if (key === "Home") focusRow(0);
    else if (key === "End") focusRow(rows.length - 1);
    else if (key === "Enter") openPage(row);
    else if (key === "ArrowRight") {
      if (row.node.children.length && !row.expanded) toggle(row.node.id, true);
      else if (row.expanded) focusRow(i + 1);
    } else if (key === "ArrowLeft") {
      if (row.expanded) toggle(row.node.id, false);
      else if (row.parentId) focusRow(rows.findIndex((r) => r.node.id === row.parentId));
    } else if (key === "*") {
      for (const r of rows) if (r.parentId === row.parentId && r.node.children.length) toggle(r.node.id, true);
    } else if (key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // Typeahead: the next row whose title starts with what was typed in the last second.
      const now = Date.now();
      typed.current = { text: (now - typed.current.at < 1000 ? typed.current.text : "") + key.toLowerCase(), at: now };
      const order = [...rows.slice(i + 1), ...rows.slice(0, i + 1)];
      const hit = order.find((r) => r.node.title.toLowerCase().startsWith(typed.current.text));
      if (hit) focusRow(rows.indexOf(hit));
    } else return;
    e.preventDefault();
  };

  // Drops: the hitbox's instruction on the row dropped on says where the page goes.
  useEffect(
    () =>
      monitorForElements({
        canMonitor: ({ source }) => source.data.kind === "cairn-page",
        onDrop: ({ source, location }) => {
          const target = location.current.dropTargets[0];
          const instruction = target ? extractInstruction(target.data) : null;
          if (!target || !instruction || instruction.type === "instruction-blocked") return;
          const id = String(source.data.id);
          const targetId = String(target.data.id);
          const title = String(source.data.title);
          const at = locate(tree.data ?? [], targetId);
          if (!at) return;
          const targetNode: TreeNode = at.node;
          if (instruction.type === "make-child") {
            const index = targetNode.children.filter((c) => c.id !== id).length;
            movePage({
              id,
              title,
              fromSpaceId: space.id,
              toSpaceId: space.id,
              parentId: targetId,
              index,
              announce: `Moved ${title} under ${targetNode.title}`,
            });
            toggle(targetId, true);
          } else {
            const siblings = at.siblings.filter((s) => s.id !== id);
            const index = siblings.findIndex((s) => s.id === targetId) + (instruction.type === "reorder-below" ? 1 : 0);
            movePage({
              id,
              title,
              fromSpaceId: space.id,
              toSpaceId: space.id,
              parentId: at.parentId,
              index,
              announce: `Moved ${title} ${instruction.type === "reorder-below" ? "below" : "above"} ${targetNode.title}`,
            });
          }
        },
      }),
    [tree.data, space.id, movePage, toggle],
  );

  if (tree.isPending) return <TreeSkeleton />;
  if (tree.error) return <p className="tree-empty">The pages could not be loaded: {tree.error.message}</p>;
  if (rows.length === 0) {
    return (
      <div className="tree-empty">
        <p>No pages yet.</p>
        {editable ? <NewPageButton space={space} /> : null}
      </div>
    );
  }
  return (
    <div className="tree-scroll" ref={scrollRef}>
      <div
        role="tree"
        aria-label={`Pages of ${space.name}`}
        className="tree"
        style={{ height: virtual.getTotalSize() }}
        onKeyDown={onKeyDown}
      >
        {virtual.getVirtualItems().map((item) => {
          const row = rows[item.index];
          return (
            <div
              key={row.node.id}
              role="none"
              className="tree-slot"
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
              <TreeRow
                row={row}
                space={space}
                current={row.node.id === currentPageId}
                focused={row.node.id === tabbable}
                editable={editable}
                menuOpen={menuFor === row.node.id}
                onMenuOpen={setMenuFor}
                onOpen={openPage}
                onToggle={(r) => toggle(r.node.id)}
                onFocusRow={setFocusedId}
                onNewChild={(r) => void newPage.start(r.node.id)}
              />
            </div>
          );
        })}
      </div>
      <div className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
    </div>
  );
}

/**
 * Focuses a row once the virtual list has drawn it: after a jump far down (End, typeahead) the
 * row appears only when the list has re-rendered, which on a busy machine takes more than one
 * frame, and a single try would leave the focus nowhere.
 */
function focusWhenDrawn(list: { current: HTMLElement | null }, id: string, framesLeft = 30): void {
  requestAnimationFrame(() => {
    const row = list.current?.querySelector<HTMLElement>(`[data-id="${id}"]`);
    if (row) row.focus();
    else if (framesLeft > 0) focusWhenDrawn(list, id, framesLeft - 1);
  });
}
