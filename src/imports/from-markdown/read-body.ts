/**
 * A Markdown file's body as a document, through the server's Markdown parser read leniently
 * (content/markdown-lenient.ts: a construct it cannot read is kept as text and named) and with
 * its raw HTML understood: HTML blocks are parsed as a browser would (parse5) and converted by
 * the same walk as a Confluence page's body (from-confluence/body.ts); relative images and links
 * are then resolved by rewrite.ts like Markdown's own.
 *
 * Images from other sites (README badges) become links with their description: pages cannot
 * show them (the Content-Security-Policy allows images from this server only, and the image
 * host allow list in the settings is not applied yet), and a broken image with a console error
 * is worse than a link. A badge's own link (`[![npm](badge.svg)](https://npmjs.com/…)`) is kept.
 */
import type { JSONContent } from "@tiptap/core";
import { parseFragment } from "parse5";
import { lenientMarkdownReader, type ImageAttrs, type LenientMarkdown } from "../../content/markdown-lenient";
import { htmlContent } from "../from-confluence/body";
import type { HtmlNode } from "../from-confluence/dom";
import type { MappedTally } from "./files";

/** The tally of the page being read (conversions are synchronous: one at a time). */
let tally: MappedTally | null = null;

const isRemote = (src: string) => /^(https?:)?\/\//i.test(src.trim());

function remoteImage(attrs: ImageAttrs, href: string | null): JSONContent[] {
  tally?.add("images from other sites", "became links with their description: pages show images stored here only");
  const file =
    decodeURIComponent(
      attrs.src
        .replace(/[?#].*$/, "")
        .split("/")
        .filter(Boolean)
        .at(-1) ?? "",
    ) || "image";
  const text = attrs.alt?.trim() || attrs.title?.trim() || file;
  return [{ type: "text", text, marks: [{ type: "link", attrs: { href: href ?? attrs.src } }] }];
}

const reader = lenientMarkdownReader({
  blocks(html) {
    return htmlContent(parseFragment(html) as unknown as HtmlNode, {
      link: (href) => href,
      // An image from another site keeps its description (with the link around it, if any).
      image: (src) => {
        if (!isRemote(src)) return src;
        tally?.add("images from other sites", "became links with their description: pages show images stored here only");
        return null;
      },
      attachmentBlock: () => null,
      mapped: (what, reason) => tally?.add(what, reason),
    });
  },
  image(attrs, href) {
    if (isRemote(attrs.src)) return remoteImage(attrs, href);
    if (/^data:/i.test(attrs.src.trim())) return attrs.alt ? [{ type: "text", text: attrs.alt }] : [];
    return null;
  },
});

export function readMarkdownBody(markdown: string, pageTally: MappedTally): LenientMarkdown {
  tally = pageTally;
  try {
    return reader(markdown);
  } finally {
    tally = null;
  }
}
