/**
 * A template's content in the editor pages are written with (the "/" menu, the selection
 * toolbar, tables, code), full width under the template's name. Save (Ctrl/⌘-Enter) replaces
 * the content (PUT /api/templates/{id}); Cancel asks first only when something changed.
 * Pages already made from the template keep what they started with.
 */
import { useQuery } from "@tanstack/react-query";
import { Suspense, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { api, data, parseDoc, type DocJson } from "../../api/client";
import { keys } from "../../api/keys";
import type { Space, Template } from "../../api/types";
import { Loading } from "../../app/Loading";
import { useAction } from "../../lib/mutation";
import { useTitle } from "../../lib/title";
import { Button } from "../../ui/Button";
import { ConfirmDialog } from "../../ui/Dialog";
import { EmptyState } from "../../ui/EmptyState";
import { DocumentEditor } from "./editor-chunk";
import { problemText, useTemplateContentMutation } from "./queries";

export function TemplateEditorScreen({ space, templateId }: { space: Space; templateId: string }) {
  const templates = useQuery({
    queryKey: keys.templates(space.id),
    queryFn: () => data(api.GET("/api/templates", { params: { query: { spaceId: space.id } } })),
  });
  const template = templates.data?.find((t) => t.id === templateId && t.spaceId === space.id);
  useTitle(template ? `${template.name} · Templates` : "Templates", space.name);
  const back = `/s/${space.key}/settings/templates`;
  if (templates.isPending) return <Loading />;
  if (!template) {
    return (
      <main id="main" className="main-column">
        <EmptyState title="This template is not here any more" action={<Link href={back}>Back to the templates of {space.name}</Link>}>
          Someone may have deleted it. The other templates of the space are listed in its settings.
        </EmptyState>
      </main>
    );
  }
  return <TemplateEditor key={template.id} space={space} template={template} back={back} />;
}

function TemplateEditor({ space, template, back }: { space: Space; template: Template; back: string }) {
  const [, navigate] = useLocation();
  const [initial] = useState(() => parseDoc(template.contentJson));
  const doc = useRef<DocJson>(initial);
  const [dirty, setDirty] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const saving = useAction(useTemplateContentMutation(space.id, template.id), {
    failure: (err) => problemText(err),
    success: `The template “${template.name}” was saved`,
    done: () => {
      setDirty(false);
      navigate(back);
    },
  });

  const save = async () => {
    if (saving.busy) return;
    await saving.run(JSON.stringify(doc.current));
  };
  const saveRef = useRef(save);
  saveRef.current = save;
  const onSave = () => void saveRef.current();

  useEffect(() => {
    // Ctrl/⌘-Enter outside the editor (inside it, the editor's own shortcut saves).
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.defaultPrevented && !leaving) {
        e.preventDefault();
        onSave();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [leaving]);
  useEffect(() => {
    if (!dirty) return;
    // Closing the tab with unsaved changes: the browser asks.
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", onUnload);
    return () => window.removeEventListener("beforeunload", onUnload);
  }, [dirty]);

  return (
    <main id="main" className="main-column template-editor">
      <header className="template-editor-head">
        <div className="template-editor-name">
          <p className="muted template-editor-kind">
            <Link href={back}>Templates of {space.name}</Link>
          </p>
          <h1>{template.name}</h1>
        </div>
        <div className="template-editor-actions">
          <Button onClick={() => (dirty ? setLeaving(true) : navigate(back))}>Cancel</Button>
          <Button variant="primary" onClick={onSave} busy={saving.busy} aria-keyshortcuts="Control+Enter" title="Save (Ctrl+Enter)">
            Save the template
          </Button>
        </div>
      </header>
      <p className="muted template-editor-hint">
        New pages made from this template start with what you write here. Type / for blocks: headings, task lists, tables, panels, code.
      </p>
      {saving.error ? (
        <p className="form-error" role="alert">
          The template was not saved: {saving.error} Your changes are still here.
        </p>
      ) : null}
      <Suspense fallback={<Loading label="Opening the editor…" />}>
        <DocumentEditor
          doc={initial}
          label="Template content"
          autoFocus={!JSON.stringify(initial).includes('"text"')}
          onChange={(next) => {
            doc.current = next;
            setDirty(true);
          }}
          onSave={onSave}
        />
      </Suspense>
      <ConfirmDialog
        open={leaving}
        onOpenChange={setLeaving}
        title="Discard your changes?"
        description={`The changes you made to the content of “${template.name}” will be lost.`}
        confirmLabel="Discard changes"
        onConfirm={() => navigate(back)}
      />
    </main>
  );
}
