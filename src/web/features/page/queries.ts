import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { Page } from "../../api/types";

/** A page by its id (the key and fetch usePage uses; the first view prefetches it too). */
export const pageQuery = (id: string) => ({ queryKey: keys.page(id), queryFn: () => data(api.GET("/api/pages/{id}", { params: { path: { id } } })) });

export function usePage(id: string) {
  return useQuery(pageQuery(id));
}

export function useVersions(id: string, enabled = true) {
  return useQuery({ queryKey: keys.versions(id), queryFn: () => data(api.GET("/api/pages/{id}/versions", { params: { path: { id } } })), enabled });
}

/** Only for people who may edit (the server answers 403 to readers). */
export function useUnpublished(id: string, enabled: boolean) {
  return useQuery({ queryKey: keys.unpublished(id), queryFn: () => data(api.GET("/api/pages/{id}/unpublished", { params: { path: { id } } })), enabled });
}

export function usePageLabels(id: string) {
  return useQuery({ queryKey: keys.labels(id), queryFn: () => data(api.GET("/api/pages/{id}/labels", { params: { path: { id } } })) });
}

/** After a change to a page: its cache from the answer, and the lists that show it refreshed. */
export function pageChanged(page: Page): void {
  queryClient.setQueryData(keys.page(page.id), page);
  void queryClient.invalidateQueries({ queryKey: keys.versions(page.id) });
  void queryClient.invalidateQueries({ queryKey: keys.tree(page.spaceId) });
  void queryClient.invalidateQueries({ queryKey: keys.recent(page.spaceId) });
}
