/** A page's labels: remove with ×, add by typing (suggestions from the labels in use). */
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api, ApiError, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import { X } from "../../ui/icons";
import { usePageLabels } from "../page/queries";

export function LabelsEditor({ pageId }: { pageId: string }) {
  const labels = usePageLabels(pageId);
  const all = useQuery({ queryKey: keys.allLabels, queryFn: () => data(api.GET("/api/labels")) });
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const listId = useId();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: keys.labels(pageId) });
    void queryClient.invalidateQueries({ queryKey: keys.allLabels });
  };
  const add = async () => {
    const value = name.trim();
    if (!value) return;
    setError(null);
    try {
      await data(api.POST("/api/pages/{id}/labels", { params: { path: { id: pageId } }, body: { name: value } }));
      setName("");
      refresh();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The label could not be added.");
    }
  };
  const remove = async (label: string) => {
    await api.DELETE("/api/pages/{id}/labels/{name}", { params: { path: { id: pageId, name: label } } });
    refresh();
  };
  const suggestions = ((all.data ?? []) as Array<{ name: string }>)
    .map((l) => l.name)
    .filter((n) => !(labels.data ?? []).some((l) => l.name === n));
  return (
    <div className="labels-editor">
      <ul className="page-labels" aria-label="Labels">
        {(labels.data ?? []).map((l) => (
          <li key={l.id} className="label-chip">
            {l.name}
            <button type="button" aria-label={`Remove label ${l.name}`} onClick={() => void remove(l.name)}>
              <X size={12} aria-hidden="true" />
            </button>
          </li>
        ))}
        <li>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void add();
            }}
          >
            <input
              className="label-input"
              aria-label="Add a label"
              placeholder="+ Label"
              list={listId}
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={error ? true : undefined}
            />
            <datalist id={listId}>
              {suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          </form>
        </li>
      </ul>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
