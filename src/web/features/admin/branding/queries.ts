/**
 * The branding section's requests: the branding (GET /api/admin/branding), saving fields, the
 * images, reset, and the contrast verdict of the colours being chosen. After each change the
 * instance's facts are read again, which applies the new branding to the page (lib/branding.ts)
 * at once.
 */
import { useQuery } from "@tanstack/react-query";
import { api, ApiError, data } from "../../../api/client";
import { keys } from "../../../api/keys";
import { queryClient } from "../../../api/query-client";
import type { AnswerOf, BodyOf } from "../../../api/types";
import { upload } from "../../../api/upload";
import { BRANDING_FILE_MAX_BYTES, megabytes } from "../../../../common/limits";

export type Branding = AnswerOf<"/api/admin/branding", "get">;
export type BrandingChange = BodyOf<"/api/admin/branding", "put">;
export type AccentPreview = AnswerOf<"/api/admin/branding/accent-preview", "post">;
export type Verdict = NonNullable<AccentPreview["light"]>;
export type Slot = "logo" | "logo-dark" | "favicon";
export type UploadedFile = AnswerOf<"/api/admin/branding/logo", "put">;

export const brandingKey = ["admin", "branding"] as const;

export function useBranding() {
  return useQuery({ queryKey: brandingKey, queryFn: () => data(api.GET("/api/admin/branding")) });
}

/** The branding as the server now has it: this section's copy, and the page's own look. */
async function changed(branding?: Branding): Promise<void> {
  if (branding) queryClient.setQueryData(brandingKey, branding);
  else await queryClient.invalidateQueries({ queryKey: brandingKey });
  await queryClient.invalidateQueries({ queryKey: keys.instance });
}

export async function saveBranding(change: BrandingChange): Promise<Branding> {
  const branding = await data(api.PUT("/api/admin/branding", { body: change }));
  await changed(branding);
  return branding;
}

export async function resetBranding(): Promise<Branding> {
  const branding = await data(api.POST("/api/admin/branding/reset"));
  await changed(branding);
  return branding;
}

export async function removeImage(slot: Slot): Promise<void> {
  if (slot === "logo") await api.DELETE("/api/admin/branding/logo");
  else if (slot === "logo-dark") await api.DELETE("/api/admin/branding/logo-dark");
  else await api.DELETE("/api/admin/branding/favicon");
  await changed();
}

/**
 * The upload, through the one upload helper: a refusal is an ApiError like the client's, so the
 * re-authentication dialog can step in.
 */
export async function uploadImage(slot: Slot, file: File): Promise<UploadedFile> {
  const body = await upload<UploadedFile>({ method: "PUT", url: `/api/admin/branding/${slot}`, file }).catch((err: unknown) => {
    // A body refused by the size guard before the route says nothing of which limit: say it.
    if (err instanceof ApiError && err.status === 413 && !err.detail)
      throw new ApiError(
        413,
        err.code,
        err.title,
        `The file is too large: logos and favicons may be at most ${megabytes(BRANDING_FILE_MAX_BYTES)}.`,
        err.field,
        err.body,
      );
    throw err;
  });
  await changed();
  return body;
}

const HEX = /^#[0-9a-f]{6}$/i;

/** The contrast verdict of a pair of colours (each checked only once it is a whole #rrggbb). */
export function useAccentPreview(light: string, dark: string, enabled: boolean) {
  const l = HEX.test(light) ? light.toLowerCase() : undefined;
  const d = HEX.test(dark) ? dark.toLowerCase() : undefined;
  return useQuery({
    queryKey: ["admin", "branding", "accent-preview", l ?? null, d ?? null],
    queryFn: () => data(api.POST("/api/admin/branding/accent-preview", { body: { light: l, dark: d } })),
    enabled: enabled && (l !== undefined || d !== undefined),
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });
}
