/**
 * The reading view's stylesheet for files that leave the server (HTML and PDF exports, the
 * static site): reading-theme.css's tokens and reading.css's typography, the same files the web
 * bundles. The web sets [data-theme] on <html> with a script; an exported file runs none, so
 * its dark tokens follow the reader's system (prefers-color-scheme) instead.
 */
import readingCss from "./reading.css" with { type: "text" };
import themeCss from "./reading-theme.css" with { type: "text" };

const DARK_BLOCK = /:root\[data-theme="dark"\]\s*\{([^}]*)\}/;

/** reading-theme.css with its dark block applied by the reader's system preference. */
export function themeForFiles(): string {
  const css = themeCss as unknown as string;
  const dark = DARK_BLOCK.exec(css);
  if (!dark) throw new Error('reading-theme.css has no :root[data-theme="dark"] block');
  return css.replace(DARK_BLOCK, `@media (prefers-color-scheme: dark) {\n  :root {${dark[1]}}\n}`);
}

/** Everything a page's `.prose` needs, light and dark, with nothing loaded from elsewhere. */
export function readingStyles(): string {
  return `${themeForFiles()}\n${readingCss as unknown as string}`;
}
