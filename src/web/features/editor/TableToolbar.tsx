/**
 * Row, column and header tools, shown while the caret is in a table: above the table (below it
 * when there is no room above), never over its header row nor over the sidebar (floating.ts).
 */
import type { Editor } from "@tiptap/core";
import { BubbleMenu } from "@tiptap/react/menus";
import { useMemo } from "react";
import { blockAroundCaret, menuOptions } from "./floating";

const OPTIONS = menuOptions("top-start", ["bottom-start"]);
const inTable = ({ editor, from, to }: { editor: Editor; from: number; to: number }) => from === to && editor.isActive("table");

const TOOLS: Array<[string, (e: Editor) => boolean]> = [
  ["Row above", (e) => e.chain().focus().addRowBefore().run()],
  ["Row below", (e) => e.chain().focus().addRowAfter().run()],
  ["Column left", (e) => e.chain().focus().addColumnBefore().run()],
  ["Column right", (e) => e.chain().focus().addColumnAfter().run()],
  ["Delete row", (e) => e.chain().focus().deleteRow().run()],
  ["Delete column", (e) => e.chain().focus().deleteColumn().run()],
  ["Header row", (e) => e.chain().focus().toggleHeaderRow().run()],
  ["Delete table", (e) => e.chain().focus().deleteTable().run()],
];

export function TableToolbar({ editor }: { editor: Editor }) {
  const table = useMemo(() => blockAroundCaret(editor, ".tableWrapper"), [editor]);
  return (
    <BubbleMenu editor={editor} pluginKey="tableToolbar" shouldShow={inTable} getReferencedVirtualElement={table} options={OPTIONS}>
      <div className="bubble-toolbar" role="toolbar" aria-label="Table">
        {TOOLS.map(([label, run]) => (
          <button key={label} type="button" className="tb-button tb-text" onClick={() => run(editor)}>
            {label}
          </button>
        ))}
      </div>
    </BubbleMenu>
  );
}
