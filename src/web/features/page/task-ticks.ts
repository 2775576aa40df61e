/**
 * Ticking a task in the reading view: the box follows at once (the page's cache is changed
 * first), the server makes the small version (PUT /api/pages/{id}/tasks), and its answer
 * becomes the page. Ticks are sent one after another, each from the version the previous one
 * made, so quick ticks of several boxes do not refuse each other. A tick the server refuses
 * is undone on screen, with the reason.
 */
import { useCallback, useRef } from "react";
import { api, ApiError, data, parseDoc } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { Page } from "../../api/types";
import { toast } from "../../ui/toast";
import { pageChanged } from "./queries";

type Node = { type?: string; attrs?: Record<string, unknown>; content?: unknown[] };

/** The document with these tasks (by place among the tasks) ticked or not. */
function withTicks(contentJson: string, ticks: ReadonlyMap<number, boolean>): string {
  if (ticks.size === 0) return contentJson;
  const doc = parseDoc(contentJson) as Node;
  let n = 0;
  const walk = (node: Node) => {
    if (node.type === "taskItem") {
      const checked = ticks.get(n++);
      if (checked !== undefined) node.attrs = { ...node.attrs, checked };
    }
    for (const child of node.content ?? []) walk(child as Node);
  };
  walk(doc);
  return JSON.stringify(doc);
}

export function useTaskTicks(pageId: string) {
  const queue = useRef<Promise<void>>(Promise.resolve());
  // Ticks sent and not answered yet: the screen shows them over whatever the cache gets.
  const pending = useRef(new Map<number, boolean>());
  return useCallback(
    (index: number, checked: boolean) => {
      const current = () => queryClient.getQueryData<Page>(keys.page(pageId));
      const show = (page: Page) =>
        queryClient.setQueryData<Page>(keys.page(pageId), { ...page, contentJson: withTicks(page.contentJson, pending.current) });
      const before = current();
      if (!before) return;
      pending.current.set(index, checked);
      show(before);
      queue.current = queue.current.then(async () => {
        const base = current()?.currentVersionNumber ?? before.currentVersionNumber;
        try {
          const saved = await data(
            api.PUT("/api/pages/{id}/tasks", { params: { path: { id: pageId } }, body: { index, checked, baseVersion: base } }),
          );
          if (pending.current.get(index) === checked) pending.current.delete(index);
          pageChanged(saved);
          show(saved);
        } catch (err) {
          if (pending.current.get(index) === checked) pending.current.delete(index);
          const now = current();
          if (now) show({ ...now, contentJson: withTicks(now.contentJson, new Map([[index, !checked]])) });
          if (err instanceof ApiError && err.code === "version_conflict") {
            toast.error("The page changed meanwhile: it is shown as it is now. Tick the task again.");
            pending.current.clear();
            void queryClient.invalidateQueries({ queryKey: keys.page(pageId) });
          } else toast.error(`The task was not ticked: ${err instanceof Error ? err.message : String(err)}`);
        }
      });
    },
    [pageId],
  );
}
