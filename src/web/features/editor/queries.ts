/**
 * The editor's writes (docs/decisions.md, "The data layer"): saving a page edited alone,
 * publishing a shared room's state, and taking back one's own unpublished changes. Each is a
 * mutation that refreshes what shows the page once it is saved; the session runs it through
 * `useAction`, which keeps the Update button busy and the words of a refusal.
 */
import { useMutation } from "@tanstack/react-query";
import { api, ApiError, data, type DocJson } from "../../api/client";
import type { BodyOf, Page, UnpublishedAuthor } from "../../api/types";
import { pageChanged } from "../page/queries";
import type { CollabRoom } from "./collab-provider";

export type PageBody = BodyOf<"/api/pages/{id}", "put">;

/** Who has unpublished changes in the page's working copy, as the server knows it now. */
export async function fetchUnpublished(pageId: string): Promise<UnpublishedAuthor[]> {
  return (await data(api.GET("/api/pages/{id}/unpublished", { params: { path: { id: pageId } } }))).authors;
}

/** A draft published as the page's first version, or the page (or draft) saved from the version in `put.baseVersion`. */
export type PageSave = { publish: { title: string; contentJson: string } } | { put: PageBody };

export const useSavePageMutation = (pageId: string) =>
  useMutation({
    mutationFn: (save: PageSave) => {
      const params = { path: { id: pageId } };
      return "publish" in save
        ? data(api.POST("/api/pages/{id}/publish", { params, body: save.publish }))
        : data(api.PUT("/api/pages/{id}", { params, body: save.put }));
    },
    onSuccess: (saved) => pageChanged(saved),
  });

/**
 * `seen`: the others whose changes this person was shown and agreed to publish; without it the
 * room's list is asked first. `doc`: this device's document, sent when the server has no room
 * open for the page.
 */
export interface RoomPublish {
  seen?: string[];
  body: PageBody;
  doc(): DocJson;
}

/** Published (`saved`, with whose changes went out), or others' changes to name first (`ask`): nothing went out. */
export type RoomPublished = { saved: Page; seen: string[] } | { ask: UnpublishedAuthor[] };

/** The room's state published as the next version (docs/decisions.md, "Publishing stays an explicit step"). */
export const usePublishRoomMutation = (pageId: string, room: CollabRoom) =>
  useMutation({
    mutationFn: async ({ seen, body, doc }: RoomPublish): Promise<RoomPublished> => {
      if (!seen) {
        await room.flush();
        const list = await fetchUnpublished(pageId);
        if (list.some((a) => a.id !== room.user.id)) return { ask: list };
        seen = [];
      }
      const put = (b: PageBody) => data(api.PUT("/api/pages/{id}", { params: { path: { id: pageId } }, body: b }));
      try {
        try {
          await room.flush();
          return { saved: await put({ ...body, contentFrom: "room", seenAuthors: seen }), seen };
        } catch (err) {
          // The server has no room open for this page (we are offline from it): send ours.
          if (!(err instanceof ApiError && err.code === "room_not_open")) throw err;
          return { saved: await put({ ...body, contentJson: JSON.stringify(doc()) }), seen };
        }
      } catch (err) {
        // Someone typed since the names were shown: show them again, nothing was published.
        if (!(err instanceof ApiError && err.code === "unseen_changes")) throw err;
        return { ask: (err.body.authors as UnpublishedAuthor[] | undefined) ?? (await fetchUnpublished(pageId).catch(() => [])) };
      }
    },
    onSuccess: (done) => {
      if ("saved" in done) pageChanged(done.saved);
    },
  });

/** This person's unpublished changes taken out of the room's copy; the answer lists whose remain. */
export const useDiscardMineMutation = (pageId: string, room: CollabRoom) =>
  useMutation({
    mutationFn: async () => {
      await room.flush();
      return data(api.POST("/api/pages/{id}/unpublished/discard", { params: { path: { id: pageId } } }));
    },
  });
