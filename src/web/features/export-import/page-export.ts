/**
 * A page downloaded as Markdown, HTML or PDF. The file is fetched and then saved (not a plain
 * link): one page is small, the PDF takes a moment to print (so "Preparing…" shows), and any
 * refusal (PDF without Chromium on the server, a format switched off meanwhile) can be told in
 * words instead of the browser saving an error document or showing "Failed – Server problem".
 */
import { fetchFile } from "../../api/download";
import { toast } from "../../ui/toast";
import { filenameFrom, saveBlob } from "./download";

export type PageFormat = "markdown" | "html" | "pdf";

export const FORMAT_NAMES: Record<PageFormat, string> = { markdown: "Markdown", html: "HTML", pdf: "PDF" };
const EXTENSIONS: Record<PageFormat, string> = { markdown: "md", html: "html", pdf: "pdf" };

export async function exportPage(pageId: string, title: string, format: PageFormat): Promise<void> {
  const name = FORMAT_NAMES[format];
  const toastId = toast.loading(`Preparing the ${name} file of “${title || "Untitled"}”…`);
  try {
    const response = await fetchFile(`/api/pages/${encodeURIComponent(pageId)}/export?format=${format}`);
    if (!response.ok) throw new Error(await refusal(response, name));
    const fallback = `${(title || "Untitled").replace(/[\\/:*?"<>|\u0000-\u001f]+/g, " ").trim() || "page"}.${EXTENSIONS[format]}`;
    saveBlob(await response.blob(), filenameFrom(response.headers.get("content-disposition"), fallback));
    toast.success(`${name} file downloaded`, { id: toastId });
  } catch (err) {
    const message = err instanceof TypeError ? "Cairn could not be reached. Check your connection and try again." : (err as Error).message;
    toast.error(`The ${name} file was not made. ${message}`, { id: toastId, duration: 10_000 });
  }
}

/** Why the server said no, in words for the person who asked. */
async function refusal(response: Response, name: string): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as { code?: string; detail?: string; title?: string };
  switch (body.code) {
    case "export_unavailable":
      return (
        "PDF files are printed by Chromium on the server, and this server has none installed. Ask your administrator to " +
        "install Chromium (the README says how), or export as HTML and print that from your browser."
      );
    case "export_disabled":
      return `${name} export is switched off for this space. A space administrator can switch it on in the space's settings.`;
    case "not_found":
      return "The page is gone, or you can no longer read it.";
    case "unauthenticated":
      return "Your session has ended. Sign in again, then try once more.";
    default:
      return body.detail ?? body.title ?? `The server answered ${response.status}. Try again in a moment.`;
  }
}
