import { Elysia } from "elysia";
import { LOSSY_IN_MARKDOWN } from "../content/markdown";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { readyAnswer } from "../platform/security-headers";
import { getPageMarkdown } from "./markdown";
import { cachedPageAnswer } from "./page-cache";
import { PageParams } from "./schemas";

const EXAMPLE =
  "# Release 2.4\n\n- [x] Search finds **fragments**\n- [ ] Export to " +
  '[PDF](https://example.com/pdf)\n\n:::panel {kind="warning"}\n\nDeploy after 18:00.\n\n:::\n';

/**
 * GET /api/pages/{id}/markdown. The answer is text/markdown, which the OpenAPI generator cannot
 * name from a schema (it calls every string text/plain), so the responses are written out here,
 * the 404 as the shared Problem every other route answers.
 */
export function markdownRoutes(core: Core) {
  return new Elysia().get(
    "/:id/markdown",
    ({ params, request, set }) => {
      const caller = callerOf(request);
      const { markdown, page } = getPageMarkdown(core, caller, params.id);
      const notModified = cachedPageAnswer(request, caller, page, set.headers as Record<string, string>);
      if (notModified) return notModified;
      return readyAnswer(markdown, "text/markdown; charset=utf-8", set);
    },
    {
      params: PageParams,
      detail: {
        tags: ["Pages"],
        summary: "The page's document as Markdown (text/markdown)",
        description:
          "The same document GET /api/pages/{id} gives as contentJson, in the Markdown that `contentMarkdown` " +
          "accepts: send it back with PUT /api/pages/{id} (with `baseVersion` from GET /api/pages/{id}) and " +
          "the page stays as it was, except for what Markdown cannot hold:\n\n" +
          LOSSY_IN_MARKDOWN.map((line) => `- ${line}`).join("\n") +
          "\n\nWho may read the page may read this; anyone else gets the same 404 as for a page that does not exist. Caching is " +
          "the page's: anonymous reads carry an ETag (If-None-Match answers 304), signed-in reads are `private, no-store`.",
        responses: {
          200: {
            description: "The document as Markdown (UTF-8)",
            content: { "text/markdown": { schema: { type: "string" }, example: EXAMPLE } },
          },
          304: { description: "Not modified (anonymous readers sending If-None-Match)" },
          404: {
            description: "Does not exist, or the caller may not know that it exists",
            content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
          },
        },
      },
    },
  );
}
