import { t } from "elysia";

export const CollabTokenAnswer = t.Object(
  {
    token: t.String({ description: "Pass as the `token` query parameter of the WebSocket; bound to your account and this page" }),
    documentName: t.String({ description: "The room: the page id" }),
    url: t.String({ description: "Where the y-websocket WebsocketProvider connects: ws(s)://<host><url>/<documentName>?token=…" }),
    expiresAt: t.String({
      format: "date-time",
      description: "When the token (and a connection made with it) ends: fetch a new one before and reconnect",
    }),
    enabled: t.Boolean({ description: "false when collaboration is switched off: edit without a room" }),
  },
  { description: "A short-lived token to edit the page together with others" },
);

const Author = t.Object(
  {
    id: t.String(),
    name: t.String(),
    since: t.String({ format: "date-time", description: "Their first change since the last published version" }),
    at: t.String({ format: "date-time", description: "Their latest change" }),
  },
  { title: "UnpublishedAuthor" },
);

export const UnpublishedAnswer = t.Object(
  {
    authors: t.Array(Author, {
      description:
        "Who has changed the shared working copy since the last published version, first changes first; empty: nothing unpublished",
    }),
  },
  { title: "UnpublishedChanges" },
);

export const DiscardAnswer = t.Object(
  {
    discarded: t.Boolean({ description: "false: nothing of yours could be taken back (no change of yours since the room was loaded)" }),
    authors: UnpublishedAnswer.properties.authors,
  },
  { title: "DiscardedChanges" },
);
