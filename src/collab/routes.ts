import { Elysia } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { PageParams } from "../pages/schemas";
import { CollabTokenAnswer, DiscardAnswer, UnpublishedAnswer } from "./schemas";
import { issueCollabToken } from "./service";
import { discardMine, unpublishedChanges } from "./unpublished";

/** The HTTP face of collaboration; the WebSocket itself is socket-routes.ts, beside the pipeline. */
export function collabRoutes(core: Core) {
  return new Elysia({ prefix: "/api/pages" })
    .get("/:id/collab-token", ({ params, request }) => issueCollabToken(core, callerOf(request), params.id), {
      params: PageParams,
      response: { 200: CollabTokenAnswer, ...problems(401, 403, 404, 409) },
      detail: {
        tags: ["Pages"],
        summary: "A short-lived token to open the page in a shared editing room",
        description:
          "Only for callers who may edit the page (404 if they may not see it, 403 if they may only read it, 409 in " +
          "the trash). The token lives 10 minutes and is bound to the account and the page. " +
          "Connect a y-websocket `WebsocketProvider` to `ws(s)://<host>/api/collab` with room `documentName` and " +
          "the query parameter `token`; the document is the Yjs XML fragment `default`, " +
          "and the map `cairn` holds `version`, the page's current version number. The server closes the socket " +
          "with 4401 when the token expires, 4403 when the account may no longer edit, " +
          "4404 when the page is trashed or hidden, 4423 when the space is archived and 4429 when the client sends too " +
          "much too fast or when the account (16) or the page (100) has too many sockets open; a socket that falls 1 MB " +
          "behind is dropped (reconnect and sync). The `user` of each awareness state is the account's name and colour, " +
          "set by the server. Fetch a new token before expiresAt and reconnect.",
      },
    })
    .get("/:id/unpublished", ({ params, request }) => unpublishedChanges(core, callerOf(request), params.id), {
      params: PageParams,
      response: { 200: UnpublishedAnswer, ...problems(401, 403, 404, 409) },
      detail: {
        tags: ["Pages"],
        summary: "Who has unpublished changes in the page's shared working copy",
        description:
          "The people whose edits in the shared editing room changed the page since its last published version (kept across " +
          "restarts). Publishing from the room (PUT with contentFrom) empties it and credits them in the version's `contributors`. " +
          "Only for callers who may edit the page (404 if they may not see it, 403 if they may " +
          "only read it, 409 in the trash): readers read the published version.",
      },
    })
    .post("/:id/unpublished/discard", ({ params, request }) => discardMine(core, callerOf(request), params.id), {
      params: PageParams,
      response: { 200: DiscardAnswer, ...problems(401, 403, 404, 409) },
      detail: {
        tags: ["Pages"],
        summary: "Take back your own unpublished changes in the shared working copy",
        description:
          "Undoes, on the server, every change you made in the page's room since it was last published while the room " +
          "has been open (others' text around yours stays), and everyone in the room receives it. " +
          "Changes of yours from before the room was last opened cannot be told apart: you then stay listed and " +
          "`discarded` may be false. 409 `room_not_open` when nobody has the page open.",
      },
    });
}
