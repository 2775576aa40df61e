/** About and Tailscale through the typed client (right dashboard.view). */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, data } from "../../../api/client";
import type { AnswerOf } from "../../../api/types";

export type About = AnswerOf<"/api/admin/about", "get">;
export type UpdateCheck = AnswerOf<"/api/admin/about/check", "post">;
export type TailscaleStatus = AnswerOf<"/api/admin/tailscale", "get">;

export const aboutKeys = {
  about: ["admin", "about"] as const,
  notices: ["admin", "about", "notices"] as const,
  tailscale: ["admin", "tailscale"] as const,
};

export const useAbout = () => useQuery({ queryKey: aboutKeys.about, queryFn: () => data(api.GET("/api/admin/about")) });

export const useTailscale = () => useQuery({ queryKey: aboutKeys.tailscale, queryFn: () => data(api.GET("/api/admin/tailscale")) });

/** The notices are plain text: fetched as such, only when asked for. */
export const useNotices = (enabled: boolean) =>
  useQuery({
    queryKey: aboutKeys.notices,
    enabled,
    queryFn: async () => (await api.GET("/api/admin/about/notices", { parseAs: "text" })).data as string,
  });

export const useCheckForUpdatesMutation = () => useMutation({ mutationFn: () => data(api.POST("/api/admin/about/check")) });
