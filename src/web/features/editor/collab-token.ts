/**
 * The short-lived token that opens a page's live room (GET /api/pages/{id}/collab-token), and
 * what each of the room's close codes means in words.
 */
import { ApiError } from "../../api/client";

export interface CollabToken {
  token: string;
  documentName: string;
  url: string;
  expiresAt: string;
  enabled: boolean;
}

/** The collab token, or an ApiError (fetched directly: a plain GET with the session cookie). */
export async function fetchCollabToken(pageId: string): Promise<CollabToken> {
  const res = await fetch(`/api/pages/${encodeURIComponent(pageId)}/collab-token`, { credentials: "same-origin" });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    throw new ApiError(res.status, String(body.code ?? "error"), String(body.title ?? res.statusText), body.detail as string | undefined, undefined, body);
  }
  return (await res.json()) as CollabToken;
}

export function closeSentence(code: number): string {
  switch (code) {
    case 4401:
      return "Your editing session expired. Reload the page to go on.";
    case 4403:
      return "You can no longer edit this page.";
    case 4404:
      return "This page was moved to the trash or hidden.";
    case 4423:
      return "This space was archived: its pages are read-only.";
    case 4429:
      return "Too many changes too fast: live editing paused.";
    default:
      return "The live editing connection closed.";
  }
}
