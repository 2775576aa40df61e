import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { Page } from "../../api/types";

/** A page by its id (the key and fetch usePage uses; the first view prefetches it too). */
export const pageQuery = (id: string) => ({
  queryKey: keys.page(id),
  queryFn: () => data(api.GET("/api/pages/{id}", { params: { path: { id } } })),
});

export function usePage(id: string) {
  return useQuery(pageQuery(id));
}

export function useVersions(id: string, enabled = true) {
  return useQuery({
    queryKey: keys.versions(id),
    queryFn: () => data(api.GET("/api/pages/{id}/versions", { params: { path: { id } } })),
    enabled,
  });
}

/** Only for people who may edit (the server answers 403 to readers). */
export function useUnpublished(id: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.unpublished(id),
    queryFn: () => data(api.GET("/api/pages/{id}/unpublished", { params: { path: { id } } })),
    enabled,
  });
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

/**
 * A new draft under `parentPageId` (or at the top), its content taken from a template when one is
 * given; the draft is kept in the cache, so the editor opens without asking for it again.
 */
export const useNewDraftMutation = (spaceId: string) =>
  useMutation({
    mutationFn: async ({
      parentPageId,
      template,
    }: {
      parentPageId?: string | null;
      template?: { id: string; contentJson: string } | null;
    }) => {
      let page = await data(api.POST("/api/pages/draft", { body: { spaceId, ...(parentPageId ? { parentPageId } : {}) } }));
      if (template)
        page = await data(
          api.PUT("/api/pages/{id}", {
            params: { path: { id: page.id } },
            body: { contentJson: template.contentJson, baseVersion: page.currentVersionNumber },
          }),
        );
      return page;
    },
    onSuccess: (page) => queryClient.setQueryData(keys.page(page.id), page),
  });

/** The page read at full width, or back to the column. */
export const usePageWidthMutation = (page: Page) =>
  useMutation({
    mutationFn: () => data(api.PUT("/api/pages/{id}/layout", { params: { path: { id: page.id } }, body: { fullWidth: !page.fullWidth } })),
    onSuccess: (updated) => queryClient.setQueryData(keys.page(page.id), updated),
  });

/** The page to the trash: the lists that show it are read again and its cached answer goes. */
export const useTrashPageMutation = (page: Page) =>
  useMutation({
    mutationFn: () => api.DELETE("/api/pages/{id}", { params: { path: { id: page.id } } }),
    onSuccess: () => {
      pageChanged(page);
      queryClient.removeQueries({ queryKey: keys.page(page.id) });
    },
  });

/** An older version made the current one (as a new version). */
export const useRestoreVersionMutation = (pageId: string) =>
  useMutation({
    mutationFn: (number: number) =>
      data(api.POST("/api/pages/{id}/versions/{number}/restore", { params: { path: { id: pageId, number } } })),
    onSuccess: pageChanged,
  });
