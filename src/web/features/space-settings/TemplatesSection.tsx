/**
 * The space's templates: listed, created from scratch (then written in the editor) or from one
 * of the space's pages, their content edited in the editor (TemplateEditorScreen), renamed
 * (and their content replaced by a page's), deleted. New pages start from them
 * (New page › a template). Wiki-wide templates are listed but changed by administrators
 * elsewhere.
 */
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useLocation } from "wouter";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { Space, Template, TreeNode } from "../../api/types";
import { fullDate, timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { ConfirmDialog, Dialog, DialogActions } from "../../ui/Dialog";
import { EmptyState } from "../../ui/EmptyState";
import { FormError, TextAreaField, TextField } from "../../ui/Field";
import { LayoutTemplate, Plus } from "../../ui/icons";
import { useAction } from "../../lib/mutation";
import { useTree } from "../tree/queries";
import { problemText, useDeleteTemplateMutation, useSaveTemplateMutation } from "./queries";
import { TEMPLATE_NAME_MAX } from "../../../common/limits";

type Editing = { template: Template | null };

export function TemplatesSection({ space }: { space: Space }) {
  const templates = useQuery({
    queryKey: keys.templates(space.id),
    queryFn: () => data(api.GET("/api/templates", { params: { query: { spaceId: space.id } } })),
  });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const deletion = useAction(useDeleteTemplateMutation(space.id), {
    failure: (err) => problemText(err),
    success: (_answer, t) => `The template “${t.name}” was deleted`,
    done: () => setDeleting(null),
  });
  const own = (templates.data ?? []).filter((t) => t.spaceId === space.id);
  const wide = (templates.data ?? []).filter((t) => t.spaceId === null);
  const remove = () => deleting && deletion.run(deleting);
  return (
    <section className="settings-card" aria-labelledby="templates-title">
      <div className="settings-card-head">
        <h2 id="templates-title">Templates</h2>
        <Button variant="primary" onClick={() => setEditing({ template: null })}>
          <Plus size={16} aria-hidden="true" /> New template
        </Button>
      </div>
      <p className="muted">
        A new page in {space.name} can start from one of these (<Link href={`/s/${space.key}/new`}>New page</Link>).
      </p>
      {templates.isPending ? null : own.length === 0 ? (
        <EmptyState title="No templates in this space yet">
          Make one for what your team writes again and again (meeting notes, a how-to, a decision record), from scratch or from a page that
          already has the right shape.
        </EmptyState>
      ) : (
        <ul className="settings-list">
          {own.map((t) => (
            <li key={t.id}>
              <LayoutTemplate aria-hidden="true" className="settings-list-icon" />
              <span className="settings-list-text">
                <span className="settings-list-name">{t.name}</span>
                <span className="muted settings-list-meta">
                  {t.description ? `${t.description} · ` : ""}changed <time title={fullDate(t.updatedAt)}>{timeAgo(t.updatedAt)}</time>
                </span>
              </span>
              <span className="settings-list-actions">
                <Link
                  className="btn btn-secondary btn-sm"
                  href={`/s/${space.key}/settings/templates/${t.id}`}
                  aria-label={`Edit content of ${t.name}`}
                >
                  Edit content
                </Link>
                <Button size="sm" onClick={() => setEditing({ template: t })} aria-label={`Edit details of ${t.name}`}>
                  Edit details
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="danger-ghost"
                  onClick={() => (deletion.setError(null), setDeleting(t))}
                  aria-label={`Delete the template ${t.name}`}
                >
                  Delete
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {wide.length ? (
        <p className="muted settings-note">
          Also offered: {wide.length} template{wide.length === 1 ? "" : "s"} for every space ({wide.map((t) => t.name).join(", ")}).
        </p>
      ) : null}
      {editing ? <TemplateDialog space={space} template={editing.template} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Delete the template?"
        description={
          deleting ? `“${deleting.name}” will no longer be offered for new pages. Pages already made from it keep their content.` : ""
        }
        confirmLabel="Delete the template"
        busy={deletion.busy}
        error={deletion.error}
        onConfirm={() => void remove()}
      />
    </section>
  );
}

function flatPages(nodes: TreeNode[], depth = 0, into: Array<{ node: TreeNode; depth: number }> = []) {
  for (const node of nodes) {
    into.push({ node, depth });
    flatPages(node.children, depth + 1, into);
  }
  return into;
}

function TemplateDialog({ space, template, onClose }: { space: Space; template: Template | null; onClose(): void }) {
  const [, navigate] = useLocation();
  const [name, setName] = useState(template?.name ?? "");
  const [description, setDescription] = useState(template?.description ?? "");
  const [fromPage, setFromPage] = useState("");
  const tree = useTree(space.id);
  const pages = flatPages(tree.data ?? []);
  const saving = useAction(useSaveTemplateMutation(space), {
    failure: (err) => problemText(err),
    done: ({ created, copied }) => {
      // From scratch: straight on to writing its content (the list above now holds it). The
      // dialog closes first: while it is open its focus trap takes the caret back from the
      // editor, which then opened without it (seen when the editor's chunk was already loaded).
      if (created && !copied) {
        onClose();
        navigate(`/s/${space.key}/settings/templates/${created.id}`);
      }
    },
    success: ({ copied }) =>
      template
        ? `The template “${name.trim()}” was saved`
        : copied
          ? `The template “${name.trim()}” was created`
          : `The template “${name.trim()}” was created: now write what new pages start with`,
  });
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return saving.setError("A template needs a name: it is what people pick from.", "name");
    if (await saving.run({ template, name, description, fromPage })) onClose();
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={template ? `Details of the template ${template.name}` : "New template"}
      description="People pick a template by its name and description when they start a page."
    >
      <form onSubmit={(e) => void save(e)}>
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={TEMPLATE_NAME_MAX}
          autoFocus
          error={saving.fieldError("name")}
        />
        <TextAreaField
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          rows={2}
          error={saving.fieldError("description")}
        />
        <div className="field">
          <label htmlFor="template-from-page">{template ? "Content" : "Start from"}</label>
          <select
            id="template-from-page"
            className="input"
            value={fromPage}
            onChange={(e) => setFromPage(e.target.value)}
            aria-describedby="template-from-page-hint"
          >
            <option value="">{template ? "Keep the template's content" : "A blank page (from scratch)"}</option>
            {pages.map(({ node, depth }) => (
              <option key={node.id} value={node.id}>
                {`${"\u00a0\u00a0".repeat(depth)}${template ? "Replace with: " : "The page: "}${node.title || "Untitled"}`}
              </option>
            ))}
          </select>
          <p id="template-from-page-hint" className="field-hint">
            {fromPage
              ? "The page's current content is copied; later changes to the page do not reach the template."
              : template
                ? "To write the content itself, use Edit content in the list."
                : "The editor opens next, to write what new pages start with."}
          </p>
        </div>
        <FormError error={saving.fieldError("name") || saving.fieldError("description") ? null : saving.error} />
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={saving.busy}>
            {template ? "Save the template" : fromPage ? "Create the template" : "Create and write its content"}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
