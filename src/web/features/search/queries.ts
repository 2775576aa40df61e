import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

/** The value, once it has stopped changing for `ms` (typing pauses). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Search as one types: debounced, the previous hits kept on screen until the next arrive.
 * `settled`: the hits shown are those of `q` as it is now (not the last query's, kept meanwhile).
 */
export function useSearchHits(q: string, spaceId: string | null) {
  const query = useDebounced(q.trim(), 150);
  const hits = useSearchQuery(query, spaceId);
  return { ...hits, settled: query === q.trim() && hits.data !== undefined && !hits.isPlaceholderData && !hits.isFetching };
}

function useSearchQuery(query: string, spaceId: string | null) {
  return useQuery({
    queryKey: keys.search(query, spaceId),
    queryFn: ({ signal }) => data(api.GET("/api/search", { params: { query: { q: query, ...(spaceId ? { spaceId } : {}) } }, signal })),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** The pages this person viewed last (the server keeps them per account), for the empty palette. */
export function useViewedPages(enabled: boolean) {
  return useQuery({
    queryKey: keys.viewed,
    queryFn: ({ signal }) => data(api.GET("/api/pages/viewed", { signal })),
    enabled,
    staleTime: 0,
  });
}
