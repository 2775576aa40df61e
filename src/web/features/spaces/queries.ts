import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

export function useSpaces(enabled = true) {
  return useQuery({ queryKey: keys.spaces, queryFn: () => data(api.GET("/api/spaces")), enabled });
}

/** A space by its key (the key and fetch useSpace uses; the first view prefetches it too). */
export const spaceQuery = (key: string) => ({
  queryKey: keys.space(key.toUpperCase()),
  queryFn: () => data(api.GET("/api/spaces/{key}", { params: { path: { key } } })),
});

export function useSpace(key: string) {
  return useQuery(spaceQuery(key));
}

/** Recently updated pages of a space, newest first (the space home and the home screen). */
export function useRecentPages(spaceId: string | undefined, limit = 8) {
  return useQuery({
    queryKey: [...keys.recent(spaceId ?? ""), limit],
    queryFn: () => data(api.GET("/api/pages/recent", { params: { query: { spaceId: spaceId!, limit } } })),
    enabled: !!spaceId,
  });
}
