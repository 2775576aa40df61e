/**
 * A new space's welcome page: what a newcomer needs to start (editing, linking, comments,
 * search, who can see the space), made with the space as its home page. Written in plain,
 * language-neutral English (no idioms), as Markdown through the page service like any page.
 *
 * Only spaces made from the web UI ask for it (POST /api/spaces with welcomePage: true): a space
 * made by a script gets exactly what it asked for, and an imported space brings its own pages.
 */
import type { Core } from "../core";
import type { Caller } from "../identity/caller";
import { createPage } from "../pages/service";
import type { CreateSpaceInput } from "../spaces/service";
import { updateSpaceRow } from "../spaces/store";
import { createSpace } from "./create-space";

export function welcomeTitle(spaceName: string): string {
  return `Welcome to ${spaceName}`;
}

export function welcomeMarkdown(space: { key: string; name: string }): string {
  return (
    `This space holds the pages of ${space.name}. This page explains the basics; edit it to say what the space is for, or delete it ` +
    `when you no longer need it.

## Write and edit

- Press **E**, or choose **Edit**, to change a page. Type **/** in the editor ` +
    `to add headings, lists, tables, code, images and more.
- Every published version is kept: **History** shows who changed what, ` +
    `and any version can be restored.
- Make a new page with the **+** beside the space's name (or beside a page, for a page inside ` +
    `it). Drag pages in the sidebar to put them in order or under another page.

## Link pages

- Type **[[** and part of a page's ` +
    `title to link to that page. The link keeps working when the page is renamed or moved.
- Paste a web address to link to anything ` +
    `outside the wiki.

## Discuss

- Select some text and choose **Comment** to ask a question about it, or open **Comments** ` +
    `beside the page.
- Type **@** and a name to mention someone: they are notified.
- **Watch** a page or the whole space to hear ` +
    `about changes.

## Find things

- Press **Ctrl K** (**⌘ K** on a Mac) anywhere to search every page you can see. Small typing ` +
    `mistakes are forgiven.

## Who can see this space

- A new space is open to everyone signed in: they can read and edit its ` +
    `pages.
- The space's administrators choose who may view, edit or administer it under **Settings → Access**. A single page can ` +
    `also be limited to some people.
`
  );
}

/** POST /api/spaces: the space, with a welcome page as its home page when asked (one transaction). */
export function createSpaceFromRequest(core: Core, caller: Caller, input: CreateSpaceInput & { welcomePage?: boolean }) {
  if (!input.welcomePage) return createSpace(core, caller, input);
  return core.tx(() => {
    const space = createSpace(core, caller, input);
    const page = createPage(core, caller, { spaceId: space.id, title: welcomeTitle(space.name), contentMarkdown: welcomeMarkdown(space) });
    updateSpaceRow(core, space.id, { homepageId: page.id });
    return { ...space, homepageId: page.id };
  });
}
