import { Elysia, t } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { callerId } from "../identity/caller";
import { notFound } from "../platform/errors";
import { readProgress } from "../platform/progress";

export const ProgressAnswer = t.Object(
  {
    id: t.String(),
    phase: t.String({
      description: "What the work is doing now, e.g. `pages`, `blobs`, `writing` (the phases are the export's or import's own)",
    }),
    percent: t.Integer({ minimum: 0, maximum: 100, description: "How far it is, 0 to 100; 100 only once done without error" }),
    done: t.Boolean({ description: "True once the work has ended, with or without error" }),
    error: t.Union([t.Object({ code: t.String(), message: t.String() }), t.Null()], {
      description: "Why the work stopped, when it failed",
    }),
  },
  { description: "Progress of an export or import" },
);

/** GET /api/export-progress/{id}: the progress of an export or import started with `?progress=<id>`. */
export function progressRoutes(_core: Core) {
  return new Elysia().get(
    "/api/export-progress/:id",
    ({ params, request }) => {
      const view = readProgress(params.id, callerId(callerOf(request)));
      if (!view) throw notFound("No export or import of yours follows that progress id");
      return view;
    },
    {
      params: t.Object({ id: t.String({ maxLength: 64, description: "The `progress` id the export or import was started with" }) }),
      response: { 200: ProgressAnswer, ...problems(404) },
      detail: {
        tags: ["Export and import"],
        summary: "How far an export or import started with `?progress=<id>` has got",
        description:
          "Exports (`GET /api/spaces/{key}/export/pack`, `…/export/site`) and imports (`POST /api/spaces/import`) take " +
          "`?progress=<id>`, an id the client chooses (8 to 64 letters, digits, `-` or `_`; 400 naming `progress` otherwise; 409 " +
          "`progress_in_use` while the caller's own work under that id still runs), so it can poll here while the response " +
          "streams. Only the user who started the work sees it: anybody else, an anonymous caller, or an unknown id gets 404. Kept " +
          "10 minutes after the work ends (done or failed), in memory (a restart forgets it).",
      },
    },
  );
}
