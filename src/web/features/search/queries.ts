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

/** Search as one types: debounced, the previous hits kept on screen until the next arrive. */
export function useSearchHits(q: string, spaceId: string | null) {
  const query = useDebounced(q.trim(), 150);
  return useQuery({
    queryKey: keys.search(query, spaceId),
    queryFn: ({ signal }) => data(api.GET("/api/search", { params: { query: { q: query, ...(spaceId ? { spaceId } : {}) } }, signal })),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
