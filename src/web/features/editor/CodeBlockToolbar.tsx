/**
 * The language of the code block the caret is in (it picks the syntax colours and is saved):
 * above the block's top right corner (below the block when there is no room above), so it never
 * covers the code (floating.ts).
 */
import type { Editor } from "@tiptap/core";
import { useEditorState } from "@tiptap/react";
import { BubbleMenu } from "@tiptap/react/menus";
import { useMemo } from "react";
import { blockAroundCaret, menuOptions } from "./floating";
import { LANGUAGES } from "./lowlight";

const OPTIONS = menuOptions("top-end", ["bottom-end"], 4);
const inCode = ({ editor }: { editor: Editor }) => editor.isActive("codeBlock");

export function CodeBlockToolbar({ editor }: { editor: Editor }) {
  const language = useEditorState({
    editor,
    selector: ({ editor: e }) => (e.isActive("codeBlock") ? ((e.getAttributes("codeBlock").language as string | null) ?? "") : null),
  });
  const block = useMemo(() => blockAroundCaret(editor, "pre"), [editor]);
  return (
    <BubbleMenu editor={editor} pluginKey="codeBlockToolbar" shouldShow={inCode} getReferencedVirtualElement={block} options={OPTIONS}>
      <div className="bubble-toolbar" role="toolbar" aria-label="Code block">
        <select
          className="code-language"
          aria-label="Code language"
          value={language ?? ""}
          onChange={(e) =>
            editor
              .chain()
              .focus()
              .updateAttributes("codeBlock", { language: e.target.value || null })
              .run()
          }
        >
          {LANGUAGES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
    </BubbleMenu>
  );
}
