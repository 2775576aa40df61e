import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./client";

/** Answers stay fresh 30 s; only network failures and 5xx are retried (a 4xx will not change). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status < 500),
    },
    mutations: { retry: false },
  },
});
