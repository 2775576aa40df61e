/**
 * A page's document as Markdown (GET /api/pages/{id}/markdown). Reading it is reading the
 * page: the same access check and the same 404, through getPageJson. The conversion is kept
 * until the next write, like the page's JSON, so repeated reads of a big page cost nothing.
 */
import type { Caller } from "../identity/caller";
import { contentToMarkdown } from "../content/markdown";
import type { Core } from "../core";
import { keptTextsUntilWrite } from "../platform/db/kept-answers";
import { getPageJson } from "./service";
import type { PageMeta } from "./tables";

const keptMarkdown = keptTextsUntilWrite("markdown", 8 * 1024 * 1024);

export function getPageMarkdown(core: Core, caller: Caller, id: string): { markdown: string; page: PageMeta } {
  const { json, page } = getPageJson(core, caller, id);
  const markdown = keptMarkdown(core.stamp, `${page.id}|${page.currentVersion}`, () =>
    contentToMarkdown((JSON.parse(json) as { contentJson: string }).contentJson),
  );
  return { markdown, page };
}
