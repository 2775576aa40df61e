/**
 * Shared set-ups of the browser tests: an instance with its owner signed in, spaces and pages
 * made through the API (fast), and small page objects for the editor.
 */
import type { Page } from "playwright-core";
import { apiCall, createOwner, PASSWORD, startCairn, visit, type RunningCairn, type Visit } from "./harness";

export interface World {
  cairn: RunningCairn;
  owner: Visit;
  storage: Awaited<ReturnType<Visit["context"]["storageState"]>>;
  close(): Promise<void>;
}

/** A running instance with its owner signed in; every sign-in of a file comes from one address. */
export async function ownerWorld(): Promise<World> {
  const cairn = await startCairn();
  const owner = await visit(cairn);
  await createOwner(owner.page);
  await api(owner.page, "PUT", "/api/admin/settings", { loginRateLimitPerMinute: 1000 });
  return {
    cairn,
    owner,
    storage: await owner.context.storageState(),
    async close() {
      await owner.close();
      await cairn.stop();
    },
  };
}

/** An API call that must succeed; answers the body. */
export async function api(page: Page, method: string, path: string, body?: unknown): Promise<any> {
  const res = await apiCall(page, method, path, body);
  if (res.status < 200 || res.status > 299) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export const para = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });
export const docJson = (...blocks: object[]) => JSON.stringify({ type: "doc", content: blocks });

export async function newSpace(page: Page, key: string, name: string): Promise<{ id: string; key: string }> {
  return api(page, "POST", "/api/spaces", { key, name });
}

export async function newPage(
  page: Page,
  spaceId: string,
  title: string,
  opts: { parentPageId?: string; text?: string } = {},
): Promise<{ id: string; currentVersionNumber: number }> {
  return api(page, "POST", "/api/pages", {
    spaceId,
    title,
    contentJson: docJson(para(opts.text ?? `${title} text.`)),
    ...(opts.parentPageId ? { parentPageId: opts.parentPageId } : {}),
  });
}

/** The page's document as the server stores it. */
export async function storedDoc(page: Page, id: string): Promise<{ title: string; version: number; doc: any; text: string }> {
  const p = await api(page, "GET", `/api/pages/${id}`);
  return { title: p.title, version: p.currentVersionNumber, doc: JSON.parse(p.contentJson), text: p.contentJson };
}

/** Every node type in a document. */
export function nodeTypes(doc: any, into = new Set<string>()): Set<string> {
  into.add(doc.type);
  for (const c of doc.content ?? []) nodeTypes(c, into);
  for (const m of doc.marks ?? []) into.add(`mark:${m.type}`);
  return into;
}

/** Types a "/" command and picks the block named `title` from the menu. */
export async function slash(page: Page, query: string, title: string): Promise<void> {
  await page.keyboard.type(`/${query}`);
  await page
    .getByRole("option", { name: new RegExp(`^${title}`) })
    .first()
    .waitFor();
  await page
    .getByRole("option", { name: new RegExp(`^${title}`) })
    .first()
    .click();
}

/**
 * Puts the caret at the end of the document through the editor itself: a key press right after
 * an insertion can reach ProseMirror before it has read the new DOM selection.
 */
export async function caretToEnd(page: Page): Promise<void> {
  await page.evaluate(() =>
    (document.querySelector(".ProseMirror") as unknown as { editor: { commands: { focus(at: string): void } } }).editor.commands.focus(
      "end",
    ),
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** A second person, invited by the owner (through the API) and signed in in a context of their own. */
export async function invitedPerson(
  cairn: RunningCairn,
  owner: Page,
  email = "bea@example.com",
  displayName = "Bea Builder",
): Promise<Visit> {
  const invite = await api(owner, "POST", "/api/admin/invites", { email, expiresInDays: 7, sendEmail: false });
  const person = await visit(cairn);
  await person.page.goto("/api/health");
  const reg = await apiCall(person.page, "POST", "/api/auth/register", {
    email,
    displayName,
    password: PASSWORD,
    inviteToken: invite.token,
  });
  if (reg.status > 299) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
  return person;
}
