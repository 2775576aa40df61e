import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { readyJson } from "../platform/security-headers";
import { MAX_QUERY_LENGTH, searchJson } from "./service";

const SearchHit = t.Object(
  {
    pageId: t.String(),
    spaceId: t.String(),
    spaceKey: t.String(),
    space: t.String({ description: "The space's name" }),
    title: t.String(),
    snippet: t.String({ description: "The passage that matched, matching words in **double asterisks**" }),
    spelledAs: t.Optional(
      t.String({
        description:
          'Only on a match of near spellings ("kubernets" found "kubernetes"): the query as this page ' +
          "matched it; such hits come after every match of the words as typed",
      }),
    ),
  },
  { title: "SearchHit" },
);

export function searchRoutes(core: Core) {
  return new Elysia({ prefix: "/api" }).get(
    "/search",
    ({ query, request, set }) => readyJson(searchJson(core, callerOf(request), query), set),
    {
      query: t.Object({
        q: t.String({ maxLength: MAX_QUERY_LENGTH * 4, description: 'Words; "quoted phrases", prefix* and -excluded words work' }),
        spaceId: t.Optional(t.String({ maxLength: 100 })),
      }),
      response: { 200: t.Array(SearchHit), ...problems(400, 401, 404, 429) },
      detail: { tags: ["Search"], summary: "Search pages the caller can read: at most 50, best first" },
    },
  );
}
