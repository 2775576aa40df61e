/**
 * The short-lived token that opens a page's live room (GET /api/pages/{id}/collab-token), and
 * what each of the room's close codes means in words.
 */
import { api, data } from "../../api/client";
import type { AnswerOf } from "../../api/types";

export type CollabToken = AnswerOf<"/api/pages/{id}/collab-token", "get">;

/** The collab token (an ApiError when the caller may not edit the page). */
export function fetchCollabToken(pageId: string): Promise<CollabToken> {
  return data(api.GET("/api/pages/{id}/collab-token", { params: { path: { id: pageId } } }));
}

export function closeSentence(code: number): string {
  switch (code) {
    case 4401:
      return "Your editing session expired. Reload the page to go on.";
    case 4403:
      return "You can no longer edit this page.";
    case 4404:
      return "This page was moved to the trash or hidden.";
    case 4409:
      return "The editor sent a change built on content the server does not have: it was not kept. Reload the page to keep editing.";
    case 4413:
      return (
        "This page is too large to keep editing together: your last change was not kept. Copy " +
        "what you need, reload the page, and move part of it to a new page."
      );
    case 4415:
      return "The editor sent a change outside the page's text, which the server does not keep. Reload the page to keep editing.";
    case 4423:
      return "This space was archived: its pages are read-only.";
    case 4429:
      return "Too many changes too fast: live editing paused.";
    default:
      return "The live editing connection closed.";
  }
}
