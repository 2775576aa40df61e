import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { DOCUMENT_BODY } from "../http/body";
import { callerOf } from "../http/request-state";
import type { QuickContext, QuickRead } from "../http/quick-reads";
import { problems } from "../http/schemas";
import { invalid } from "../platform/errors";
import { readyJson } from "../platform/security-headers";
import { lifecycleRoutes } from "./lifecycle-routes";
import { linksRoutes } from "./links-routes";
import { markdownRoutes } from "./markdown-routes";
import { cachedPageAnswer } from "./page-cache";
import {
  CreatePageBody,
  EmojiBody,
  LayoutBody,
  Page,
  PageParams,
  TickTaskBody,
  UpdatePageBody,
  Version,
  VersionParams,
  VersionWithContent,
} from "./schemas";
import { createPage, getPageJson, setPresentation, updatePage } from "./service";
import { structureRoutes } from "./structure-routes";
import { publishRoom } from "../commands/publish-room";
import { tickTask } from "../commands/tick-task";
import { pageViews } from "../dashboard/page-views";
import { getVersion, listVersions, restoreVersion } from "./versions";

export const pagesDetail = (summary: string) => ({ tags: ["Pages"], summary });

/** GET /api/pages/{id}: the route's handler, and a quick read (http/quick-reads.ts). */
function answerPage(core: Core, { params, request, set }: QuickContext): Response {
  const caller = callerOf(request);
  const { body, page } = getPageJson(core, caller, params.id!);
  pageViews(core).read(caller, page, request.headers.get("user-agent"));
  const headers = set.headers as Record<string, string>;
  return cachedPageAnswer(request, caller, page, headers) ?? readyJson(body, set);
}

export const pageQuickReads = (core: Core): QuickRead[] => [{ path: "/api/pages/:id", handler: (context) => answerPage(core, context) }];

/** Every /api/pages route: these (one page and its versions), structure and lifecycle. */
export function pageRoutes(core: Core) {
  return new Elysia({ prefix: "/api/pages" })
    .use(structureRoutes(core))
    .use(lifecycleRoutes(core))
    .use(markdownRoutes(core))
    .use(linksRoutes(core))
    .post(
      "/",
      ({ body, request, set }) => {
        const page = createPage(core, callerOf(request), body);
        set.status = 201;
        return page;
      },
      {
        body: CreatePageBody,
        response: { 201: Page, ...problems(400, 401, 403, 404) },
        detail: { ...pagesDetail("Create a published page at the top level or under parentPageId (fires page.created)"), ...DOCUMENT_BODY },
      },
    )
    .get("/:id", (context) => answerPage(core, context), {
      params: PageParams,
      response: { 200: Page, 304: t.Void({ description: "Not modified (anonymous readers sending If-None-Match)" }), ...problems(404) },
      detail: {
        ...pagesDetail("A page with its document"),
        description:
          "Anonymous reads (public spaces) carry an ETag and `Cache-Control: public, no-cache`; If-None-Match " +
          "answers 304 while the page is unchanged. Signed-in reads are `private, no-store`.",
      },
    })
    .put(
      "/:id",
      ({ params, body, request, set }) => {
        if (body.contentFrom !== undefined)
          return publishRoom(core, callerOf(request), params.id, { ...body, contentFrom: body.contentFrom });
        if (body.seenAuthors !== undefined)
          throw invalid("seenAuthors", 'only with contentFrom: "room" (it names whose changes in the room you publish)');
        // Answered as text, as GET is: toPage's object is the Page schema by construction, and
        // checking a whole document against it again cost every save some 40 µs.
        return readyJson(JSON.stringify(updatePage(core, callerOf(request), params.id, body)), set);
      },
      {
        params: PageParams,
        body: UpdatePageBody,
        response: { 200: Page, ...problems(400, 401, 403, 404, 409) },
        detail: {
          ...pagesDetail(
            "Update a page: adds version N+1; without contentJson or contentMarkdown only " +
              "renames; a stale baseVersion is 409 with the current page",
          ),
          ...DOCUMENT_BODY,
          description:
            "A title and document equal to the current version's change nothing: the answer is 200 with the page as it is, " +
            "and no version, event or webhook is added (a changeComment alone is not a change).\n\n" +
            "A baseVersion other than currentVersionNumber answers 409 `version_conflict`, a problem document: " +
            "`title` is the problem's, `code` is `version_conflict`, `detail` says what to do " +
            "(reload, merge your changes, send them again with the current version as baseVersion), and `current` is the " +
            "current Page (all its fields, including title, contentJson and currentVersionNumber). " +
            "For existing clients the page's other fields are also at the top level, except `title` (the problem's; " +
            "the page's is `current.title`) and `status` (409; the page's is `pageStatus`).",
        },
      },
    )
    .put("/:id/emoji", ({ params, body, request }) => setPresentation(core, callerOf(request), params.id, { emoji: body.emoji }), {
      params: PageParams,
      body: EmojiBody,
      response: { 200: Page, ...problems(400, 401, 403, 404, 409) },
      detail: pagesDetail("Set the page's emoji (one emoji) or remove it (null)"),
    })
    .put("/:id/tasks", ({ params, body, request }) => tickTask(core, callerOf(request), params.id, body), {
      params: PageParams,
      body: TickTaskBody,
      response: { 200: Page, ...problems(400, 401, 403, 404, 409) },
      detail: {
        ...pagesDetail("Tick or untick one task of the page (reading view): a small version of its own, also made in an open editing room"),
        description:
          'The version\'s change comment names the task ("Ticked “Write the notes”"). A task ' +
          "already in that state changes nothing (200, no version). " +
          "While the page is open in a shared editing room, the same task is ticked in the room's working copy and the room moves " +
          "to the new version, so the editors see the tick without a tracked change and keep their unpublished words.",
      },
    })
    .put("/:id/layout", ({ params, body, request }) => setPresentation(core, callerOf(request), params.id, { fullWidth: body.fullWidth }), {
      params: PageParams,
      body: LayoutBody,
      response: { 200: Page, ...problems(400, 401, 403, 404, 409) },
      detail: pagesDetail("Switch the page between normal and full width"),
    })
    .get("/:id/versions", ({ params, request }) => listVersions(core, callerOf(request), params.id), {
      params: PageParams,
      response: { 200: t.Array(Version), ...problems(404) },
      detail: pagesDetail("The page's versions, newest first"),
    })
    .get("/:id/versions/:number", ({ params, request }) => getVersion(core, callerOf(request), params.id, params.number), {
      params: VersionParams,
      response: { 200: VersionWithContent, ...problems(400, 404) },
      detail: pagesDetail("One version with its document"),
    })
    .post("/:id/versions/:number/restore", ({ params, request }) => restoreVersion(core, callerOf(request), params.id, params.number), {
      params: VersionParams,
      response: { 200: Page, ...problems(400, 401, 403, 404, 409) },
      detail: pagesDetail('Make an old version current again, as a new version "Restored from version N"'),
    });
}
