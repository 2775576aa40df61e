/**
 * A new page starts here: a blank page or one of the templates (the space's own and the
 * wiki-wide ones). Choosing makes a draft, visible only to its author until published, and
 * opens it in the editor.
 */
import { useQuery } from "@tanstack/react-query";
import { Link, useLocation, useSearch } from "wouter";
import { api, ApiError, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { Space, Template } from "../../api/types";
import { useAction } from "../../lib/mutation";
import { pagePath } from "../../lib/slug";
import { FileText, LayoutTemplate } from "../../ui/icons";
import { ancestorsOf, useTree } from "../tree/queries";
import { useNewDraftMutation } from "./queries";
import "./new-page.css";
import { useTitle } from "../../lib/title";

export function NewPageScreen({ space }: { space: Space }) {
  const parent = new URLSearchParams(useSearch()).get("parent") ?? undefined;
  const [, navigate] = useLocation();
  useTitle("New page", space.name);
  const templates = useQuery({
    queryKey: keys.templates(space.id),
    queryFn: () => data(api.GET("/api/templates", { params: { query: { spaceId: space.id } } })),
    enabled: space.canEdit,
  });
  const tree = useTree(space.id);
  const parentTitle = parent ? ancestorsOf(tree.data, parent).at(-1)?.title : undefined;
  const creation = useAction(useNewDraftMutation(space.id), {
    failure: (err) => (err instanceof ApiError ? err.message : "The page could not be created. Check your connection and try again."),
    done: (page) => navigate(`${pagePath(space.key, page.id)}/edit`, { replace: true }),
  });
  // Which choice is being made: a template's id, or "blank".
  const busy = creation.pending ? (creation.pending.template?.id ?? "blank") : null;
  const error = creation.error;

  // The built-in templates (a module of their own: the chooser is rarely opened).
  const builtins = useQuery({
    queryKey: ["builtin-templates"],
    queryFn: () => import("./builtin-templates").then((m) => m.BUILTIN_TEMPLATES),
    staleTime: Infinity,
  });

  // A template of the space or the wiki with a built-in one's name takes its place.
  const ownNames = new Set((templates.data ?? []).map((t) => t.name.toLowerCase()));

  const start = (template: Pick<Template, "id" | "contentJson"> | null) => creation.run({ parentPageId: parent, template });

  if (!space.canEdit) {
    // Reached by its address only: nothing links here for someone who may not add pages.
    return (
      <main id="main" className="main-column new-page">
        <h1>New page</h1>
        <p>
          {space.archived
            ? `${space.name} is archived: its pages can be read, not added to.`
            : `You can read ${space.name}, but not add pages to it.`}{" "}
          {space.archived ? "An administrator of the space can unarchive it." : "Ask an administrator of the space for Edit access."}
        </p>
        <p>
          <Link href={`/s/${space.key}`}>Back to {space.name}</Link>
        </p>
      </main>
    );
  }
  return (
    <main id="main" className="main-column new-page">
      <h1>New page</h1>
      <p className="muted">
        {parentTitle ? `Inside “${parentTitle}”, in ${space.name}. ` : `At the top of ${space.name}. `}
        Start from a blank page or a template. It stays a draft, seen only by you, until you publish it.
      </p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <ul className="template-grid">
        <li>
          <button
            type="button"
            className="template-card"
            onClick={() => void start(null)}
            disabled={!!busy}
            aria-busy={busy === "blank" || undefined}
          >
            <FileText aria-hidden="true" />
            <span className="template-name">Blank page</span>
            <span className="template-desc">Start writing; type / for blocks.</span>
          </button>
        </li>
        {(templates.data ?? []).map((t) => (
          <li key={t.id}>
            <button
              type="button"
              className="template-card"
              onClick={() => void start(t)}
              disabled={!!busy}
              aria-busy={busy === t.id || undefined}
            >
              <LayoutTemplate aria-hidden="true" />
              <span className="template-name">{t.name}</span>
              <span className="template-desc">
                {t.description || (t.spaceId ? `A template of ${space.name}` : "A template for every space")}
              </span>
            </button>
          </li>
        ))}
        {(builtins.data ?? [])
          .filter((t) => !ownNames.has(t.name.toLowerCase()))
          .map((t) => (
            <li key={t.id}>
              <button
                type="button"
                className="template-card"
                onClick={() => void start({ id: t.id, contentJson: JSON.stringify(t.doc) })}
                disabled={!!busy}
                aria-busy={busy === t.id || undefined}
              >
                <LayoutTemplate aria-hidden="true" />
                <span className="template-name">{t.name}</span>
                <span className="template-desc">{t.description}</span>
              </button>
            </li>
          ))}
      </ul>
    </main>
  );
}
