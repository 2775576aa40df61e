/**
 * The frame of a page view, written into the app's page for the browser to paint before any
 * script runs: the top bar (search, bell, avatar's place), the sidebar with rows of grey bars
 * and an empty main column, in the same classes as the app's own frame (app/Shell.tsx,
 * features/spaces/SpaceSidebar.tsx, features/tree/TreeSkeleton.tsx), so the app's stylesheet
 * draws it and the app's first render replaces it without anything moving. It carries nothing
 * about the caller or the page: names and the tree come with the app.
 *
 * Only for a page address (/s/KEY/p/…) asked with a session cookie (the screen that follows
 * is then that frame, not the sign-in form) and with the theme the app last painted (a cookie
 * the app writes, lib/theme.ts): the theme lives where only script can read it, and a frame in
 * the wrong theme would flash. Without either, the page is served bare, as before.
 *
 * For the reading view of a page the caller may read (ui-page-view.ts), the main column also
 * carries the page: its title and its first screen of text (pageMain), as the app's first render
 * draws them, so the browser paints the text before any script runs. The app's first render
 * replaces the whole frame in one commit with the same look.
 */
import { escapeHtml, documentHtml } from "../content/html";
import { UNSEEN_PAGE } from "../content/page-links";
import { firstScreenOf } from "../content/first-screen";

/** What the reading view's first render draws of a page (ui-page-view.ts reads it). */
export interface PageView {
  title: string;
  emoji: string | null;
  fullWidth: boolean;
  contentJson: string;
  /** Whether the caller may edit it: the app then draws task boxes that tick. */
  canEdit: boolean;
}

const SESSION_COOKIE = "cairn_session";
export const THEME_COOKIE = "cairn_theme";
const PAGE_ADDRESS = /^\/s\/[A-Za-z0-9_-]{1,64}\/p\/[^/]+/;

const cookie = (header: string, name: string) => new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(header)?.[1] ?? null;

/** The theme to paint the frame in, or null: no frame for this request. */
export function frameTheme(path: string, cookieHeader: string | null): "light" | "dark" | null {
  if (!cookieHeader || !PAGE_ADDRESS.test(path) || !cookie(cookieHeader, SESSION_COOKIE)) return null;
  const theme = cookie(cookieHeader, THEME_COOKIE);
  return theme === "light" || theme === "dark" ? theme : null;
}

const svg = (cls: string, size: number, paths: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" ` +
  `stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="lucide ${cls}" aria-hidden="true">${paths}</svg>`;

// TreeSkeleton's bars, in its widths.
const TREE_ROWS = [68, 52, 76, 44, 60, 72, 48, 64]
  .map((w) => `<div class="tree-skeleton-row"><span class="tree-skeleton-bar" style="width:${w}%"></span></div>`)
  .join("");

const EMPTY_MAIN = `<main class="main-column page"></main>`;

/** Lucide's bell, as the app's top bar draws it. */
const BELL_PATHS =
  '<path d="M10.268 21a2 2 0 0 0 3.464 0"></path>' +
  '<path d="M3.262 15.326A1 1 0 0 0 4 17h16a1 1 0 0 0 .74-1.673' +
  'C19.41 13.956 18 12.499 18 8A6 6 0 0 0 6 8c0 4.499-1.411 5.956-2.738 7.326"></path>';
const MENU_PATHS = '<path d="M4 5h16"></path><path d="M4 12h16"></path><path d="M4 19h16"></path>';
const SEARCH_PATHS = '<path d="m21 21-4.34-4.34"></path><circle cx="11" cy="11" r="8"></circle>';

/** Inert and hidden from assistive technology: a picture of the frame until the app's own. */
const FRAME =
  `<div class="shell shell-with-sidebar boot-frame" aria-hidden="true" inert>` +
  `<aside class="sidebar"><div class="sidebar-head"><div class="space-switcher">` +
  `<span class="boot-ghost boot-icon"></span><span class="boot-ghost boot-name"></span></div></div>` +
  `<nav class="sidebar-tree"><div class="tree-skeleton">${TREE_ROWS}</div></nav></aside>` +
  `<div class="shell-body"><header class="topbar">` +
  `<span class="btn btn-ghost btn-md btn-icon drawer-button">${svg("lucide-menu", 24, MENU_PATHS)}</span>` +
  `<div class="breadcrumbs"></div><div class="topbar-actions">` +
  `<span class="search-launcher">${svg("lucide-search", 16, SEARCH_PATHS)}` +
  `<span class="search-launcher-text">Search…</span><kbd>Ctrl K</kbd></span>` +
  `<span class="btn btn-ghost btn-icon bell">${svg("lucide-bell", 18, BELL_PATHS)}</span>` +
  `<span class="avatar-button"><span class="avatar boot-ghost"></span></span></div></header>` +
  `${EMPTY_MAIN}</div></div>`;

/** index.html with the frame in its root and the theme on <html>; null if the page is not the one expected. */
export function framedPage(indexHtml: string, theme: "light" | "dark"): string | null {
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root) || !indexHtml.includes('<html lang="en">')) return null;
  return indexHtml.replace('<html lang="en">', `<html lang="en" data-theme="${theme}">`).replace(root, `<div id="root">${FRAME}</div>`);
}

/** A framed page with `main` (pageMain's) in place of its empty main column. */
export const withMain = (framed: string, main: string) => framed.replace(EMPTY_MAIN, () => main);

/**
 * The main column of the reading view as the app's first render draws it (PageScreen with
 * PageHeader and DocumentView's first screen), every text the renderer's escaped output: the
 * header's actions row (empty: it keeps its height, and the buttons come with the app), the title,
 * the line under it (its words come with the app: they are in the reader's language), and the
 * page's first blocks. Page links show as the app shows them while it asks for their titles.
 */
export function pageMain(view: PageView): string {
  let doc: unknown;
  try {
    doc = JSON.parse(view.contentJson);
  } catch {
    doc = { type: "doc", content: [] };
  }
  let body = documentHtml(firstScreenOf(doc as object)).replaceAll(
    `<span class="page-link page-link-unseen" data-type="pageLink">${UNSEEN_PAGE}</span>`,
    `<span class="page-link page-link-loading" data-type="pageLink">…</span>`,
  );
  // For someone who may edit the page the app's task boxes tick, so they are drawn enabled.
  if (view.canEdit)
    body = body.replace(/<input type="checkbox" disabled="" (aria-label="[^"]*") readonly=""/g, '<input type="checkbox" $1');
  const emoji = view.emoji ? `<span class="page-emoji">${escapeHtml(view.emoji)}</span>` : "";
  return (
    `<main class="main-column page${view.fullWidth ? " full-width" : ""}">` +
    `<header class="page-head"><div class="page-actions"></div>` +
    `<h1 class="page-title">${emoji}${escapeHtml(view.title || "Untitled")}</h1>` +
    `<p class="page-meta">\u00a0</p></header>` +
    `<div><div class="prose">${body}</div></div></main>`
  );
}
