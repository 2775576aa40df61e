/**
 * The attachments of the static site, written so that none can run script in the site's origin.
 * A static host (or a browser opening the folder from disk) picks a file's type from its name
 * alone, so the name decides. A file keeps its name only when its extension is on
 * SAFE_EXTENSIONS (images, documents, media, archives: types no browser runs script in) and
 * its content is not markup (the type sniffed at upload: HTML, XML or SVG under another name,
 * for hosts that guess from the content); an SVG keeps it once rewritten by the sanitiser
 * (platform/svg.ts); everything else (HTML, XML, script, unknown or no extension) gets `.txt`
 * added. Host type tables map `.txt` to text/plain, which browsers show as text (or download)
 * and never render as a page, whereas an unknown suffix such as `.download` is served without a
 * type by some hosts (Apache) or sniffed into text/html (Go's file server), and refused by
 * others (IIS). Links to a renamed file carry the original name in `download`.
 */
import { sanitiseSvg, SvgRefused } from "../platform/svg";

/**
 * Kept as they are. Raster images (shown inline), documents and media the browser shows in its
 * own viewers or downloads, archives and office files it downloads. Not here on purpose: html,
 * htm, xhtml, xml, xsl (render as pages), svg (sanitised instead), js, mjs, css, json, wasm
 * (code a page could load), md (Jekyll turns it into a page), log (missing from some type
 * tables), and anything we do not know.
 */
export const SAFE_EXTENSIONS = new Set(
  (
    "png jpg jpeg gif webp avif bmp ico " +
    "pdf txt csv tsv rtf " +
    "doc docx xls xlsx ppt pptx odt ods odp odg epub " +
    "zip gz tgz tar 7z rar bz2 xz zst " +
    "mp3 m4a wav ogg oga opus flac aac mp4 m4v webm ogv mov mkv avi"
  ).split(" "),
);

/** Past this an SVG is not sanitised (the tokenizer holds the text and its output) but renamed. */
export const SVG_SANITISE_MAX = 2 * 1024 * 1024;

/** Types sniffed at upload (attachments/sniff.ts) that a browser guessing from content would render. */
const MARKUP = new Set(["text/html", "application/xml", "image/svg+xml"]);

/** What is written for one stored file: its name in `_files/<sha256>/`, and how. */
export interface SiteFile {
  /** The name written (the attachment's, or it with `.txt` added). */
  name: string;
  /** The attachment's own name when `name` differs from it: the links' `download` attribute. */
  download: string | null;
  /** The file is an SVG written through the sanitiser. */
  sanitise: boolean;
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
};

/**
 * How a file named `name` (already safe as a file name, site-paths.ts's fileName) whose content
 * was sniffed as `contentType` is written. `open` reads the stored file; it is asked for only
 * for an SVG, to learn whether the sanitiser takes it (one it refuses is renamed like any other
 * unsafe file).
 */
export async function siteFile(name: string, contentType: string, open: () => Promise<Blob | null>): Promise<SiteFile> {
  const ext = extensionOf(name);
  if (SAFE_EXTENSIONS.has(ext) && !MARKUP.has(contentType)) return { name, download: null, sanitise: false };
  if (ext === "svg") {
    const blob = await open();
    if (blob && (await sanitisedSvg(blob)) !== null) return { name, download: null, sanitise: true };
  }
  return { name: `${name}.txt`, download: name, sanitise: false };
}

/** An SVG file's text through the sanitiser, or null when it is not UTF-8 or is refused. */
export async function sanitisedSvg(blob: Blob): Promise<string | null> {
  if (blob.size > SVG_SANITISE_MAX) return null;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await blob.arrayBuffer());
  } catch {
    return null;
  }
  try {
    return sanitiseSvg(text).svg;
  } catch (err) {
    if (err instanceof SvgRefused) return null;
    throw err;
  }
}
