/**
 * Which kind of archive an upload is, and its conversion to an ImportedSpace: a Cairn pack
 * (manifest.json), a Confluence space export (an index.html with Confluence's markup, at the top
 * or in the one folder Confluence wraps it in), else a zip of Markdown files.
 */
import type { OpenedZip } from "../platform/zip/read";
import type { ImportedSpace, ImportFormat } from "./model";
import { fromConfluenceZip } from "./from-confluence";
import { fromMarkdownZip } from "./from-markdown";
import { isPack, readPack } from "./pack-read";
import { importRefused } from "./refused";

const MARKDOWN = /\.(md|markdown)$/i;
const CONFLUENCE_MARKUP = /atlassian|confluence/i;

export async function detectFormat(zip: OpenedZip): Promise<ImportFormat> {
  if (isPack(zip)) return "cairn-pack";
  const index = zip.entries.find((e) => /^([^/]+\/)?index\.html$/i.test(e.path));
  // Confluence's index.html is small (a list of pages); the first 64 KB say whose it is.
  if (index && index.size < 16 * 1024 * 1024 && CONFLUENCE_MARKUP.test((await index.text()).slice(0, 64 * 1024))) return "confluence";
  if (zip.entries.some((e) => MARKDOWN.test(e.path))) return "markdown";
  throw importRefused("the zip is not a Cairn pack, a Confluence space export (HTML) or a zip of Markdown files");
}

/** `onPage`: called as pages are read (progress). */
export async function convert(zip: OpenedZip, format: ImportFormat, onPage: () => void): Promise<ImportedSpace> {
  if (format === "cairn-pack") return readPack(zip, onPage);
  if (format === "markdown") return fromMarkdownZip(zip, onPage);
  return fromConfluenceZip(zip, onPage);
}
