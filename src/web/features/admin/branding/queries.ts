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
import { BRANDING_FILE_MAX_BYTES, megabytes } from "../../../../shared/limits";

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
 * The upload: a multipart form (the typed client sends JSON), with the CSRF header. A refusal
 * becomes an ApiError like the client's, so the re-authentication dialog can step in.
 */
export async function uploadImage(slot: Slot, file: File): Promise<UploadedFile> {
  const form = new FormData();
  form.append("file", file, file.name);
  let res: Response;
  try {
    res = await fetch(`/api/admin/branding/${slot}`, { method: "PUT", body: form, headers: { "X-Requested-With": "Cairn" }, credentials: "same-origin" });
  } catch {
    throw new Error("The upload failed: Cairn could not be reached. Check your connection and try again.");
  }
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const detail = (body.detail as string | undefined) ?? (res.status === 413 ? `The file is too large: logos and favicons may be at most ${megabytes(BRANDING_FILE_MAX_BYTES)}.` : undefined);
    throw new ApiError(res.status, String(body.code ?? "error"), String(body.title ?? `The upload failed (${res.status}).`), detail, body.field as string | undefined, body);
  }
  await changed();
  return body as UploadedFile;
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
