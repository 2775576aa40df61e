/** The language of the code block the caret is in (it picks the syntax colours and is saved). */
import type { Editor } from "@tiptap/core";
import { useEditorState } from "@tiptap/react";
import { BubbleMenu } from "@tiptap/react/menus";
import { LANGUAGES } from "./lowlight";

export function CodeBlockToolbar({ editor }: { editor: Editor }) {
  const language = useEditorState({ editor, selector: ({ editor: e }) => (e.isActive("codeBlock") ? ((e.getAttributes("codeBlock").language as string | null) ?? "") : null) });
  return (
    <BubbleMenu editor={editor} pluginKey="codeBlockToolbar" shouldShow={({ editor: e }) => e.isActive("codeBlock")} options={{ placement: "top-end" }}>
      <div className="bubble-toolbar" role="toolbar" aria-label="Code block">
        <select className="code-language" aria-label="Code language" value={language ?? ""} onChange={(e) => editor.chain().focus().updateAttributes("codeBlock", { language: e.target.value || null }).run()}>
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
