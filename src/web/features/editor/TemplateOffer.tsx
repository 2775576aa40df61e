/**
 * On a new, empty page: "Start from a template" with the built-in ones (meeting notes, how-to,
 * decision record, runbook), as Outline and Notion offer them. Choosing one fills the page
 * (one undo step away); typing anything instead makes the offer go.
 */
import type { Editor } from "@tiptap/core";
import { useEditorState } from "@tiptap/react";
import { BUILTIN_TEMPLATES } from "../page/builtin-templates";
import { LayoutTemplate } from "../../ui/icons";
import "./template-offer.css";

export function TemplateOffer({ editor }: { editor: Editor }) {
  const empty = useEditorState({ editor, selector: ({ editor: e }) => e.isEmpty });
  if (!empty) return null;
  const use = (doc: object) => {
    editor.commands.setContent(doc);
    // The title is the next thing to write when it is still blank; else the first line.
    const title = document.querySelector<HTMLTextAreaElement>("textarea.title-input");
    if (title && !title.value.trim()) title.focus();
    else editor.commands.focus("start");
  };
  return (
    <section className="template-offer" aria-labelledby="template-offer-title">
      <h2 id="template-offer-title" className="template-offer-title">
        Start from a template
      </h2>
      <ul className="template-offer-list">
        {BUILTIN_TEMPLATES.map((t) => (
          <li key={t.id}>
            <button type="button" className="template-chip" title={t.description} onClick={() => use(t.doc)}>
              <LayoutTemplate size={15} aria-hidden="true" /> {t.name}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
