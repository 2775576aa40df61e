/** The admin dashboard through the typed client. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, data } from "../../../api/client";

export const RANGES = [7, 30, 90] as const;
export type Range = (typeof RANGES)[number];

export const useDashboard = (rangeDays: Range) =>
  useQuery({
    queryKey: ["admin", "dashboard", rangeDays],
    queryFn: () => data(api.GET("/api/admin/dashboard", { params: { query: { rangeDays } } })),
    // Switching the range keeps the figures in place until the new ones arrive.
    placeholderData: keepPreviousData,
  });

export type Dashboard = NonNullable<ReturnType<typeof useDashboard>["data"]>;
