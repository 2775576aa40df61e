/**
 * PUT /api/pages/{id}/tasks: ticks or unticks one task of the published page from the reading view
 * (docs/decisions.md, "Tasks tick from the reading view"), for anyone who may edit the page. It is
 * a small version of its own ("Ticked “Write the notes”"), so history says who ticked what and
 * when.
 *
 * With the page open in a shared room, the tick must not arrive there as a change from outside:
 * the room's working copy may hold words not yet published, and a new version compared with it
 * would mark them as deletions (collab/external.ts). So the tick is made in the working copy as
 * well, on the same task (same text, same place among tasks of that text), and the room's
 * version is moved inside the same transaction, as publishing from the room does: the editors
 * see the box ticked, nothing tracked, their words untouched. A working copy stored while nobody
 * has the page open is brought along the same way when it was up to date.
 */
import type { JSONContent } from "@tiptap/core";
import * as Y from "yjs";
import { requireEditablePage } from "../access/pages";
import { replaceRoomContent, roomContent } from "../collab/content";
import { loadDocument, saveDocuments } from "../collab/store";
import { Room, SERVER_ORIGIN } from "../collab/room";
import { roomHostOf } from "../collab/service";
import type { Core } from "../core";
import type { Caller } from "../identity/caller";
import { invalid } from "../platform/errors";
import { taskWords } from "../content/task-name";
import { versionConflict } from "../pages/conflict";
import { updatePage } from "../pages/service";
import { toPage, type Page } from "../pages/answer";
import { findPage } from "../pages/store";

export interface TickTaskInput {
  /** The task's place among the page's tasks, in document order, from 0. */
  index: number;
  checked: boolean;
  /** The version the reader saw: another one means the index may name another task (409). */
  baseVersion?: number;
}

/** How many characters of a task's text the version's comment quotes. */
const QUOTED = 60;

export function tickTask(core: Core, caller: Caller, pageId: string, input: TickTaskInput): Page {
  let stored: { version: number; tick: Tick } | null = null;
  const run = (room: Room | null) =>
    core.tx(() => {
      const { page } = requireEditablePage(core, caller, findPage(core, pageId));
      if (input.baseVersion !== undefined && input.baseVersion !== page.currentVersion)
        throw versionConflict(toPage(page, true), input.baseVersion);
      const doc = JSON.parse(page.contentJson) as JSONContent;
      const tasks = taskItems(doc);
      const item = tasks[input.index];
      if (!item)
        throw invalid(
          "index",
          tasks.length
            ? `must name one of the page's ${tasks.length} tasks (0 to ${tasks.length - 1})`
            : "names no task: the page has none",
        );
      if ((item.attrs?.checked === true) === input.checked) return toPage(page, true);
      const tick = locate(tasks, input.index, input.checked);
      item.attrs = { ...item.attrs, checked: input.checked };
      const label = tick.text.length > QUOTED ? `${tick.text.slice(0, QUOTED - 1)}…` : tick.text || "a task";
      const updated = updatePage(core, caller, pageId, {
        contentJson: JSON.stringify(doc),
        changeComment: `${input.checked ? "Ticked" : "Unticked"} “${label}”`,
        baseVersion: page.currentVersion,
      });
      if (room) {
        applyTick(room, tick);
        room.setVersion(updated.currentVersionNumber);
      } else stored = { version: page.currentVersion, tick };
      return updated;
    });
  const page = roomHostOf(core)?.withLoadedRoom(pageId, (room) => run(room)) ?? run(null);
  if (stored) tickStoredCopy(core, pageId, stored, page.currentVersionNumber);
  return page;
}

interface Tick {
  text: string;
  /** Among the tasks with this text, which one (0 = the first). */
  nth: number;
  checked: boolean;
}

function taskItems(node: JSONContent, into: JSONContent[] = []): JSONContent[] {
  if (node.type === "taskItem") into.push(node);
  for (const child of node.content ?? []) taskItems(child, into);
  return into;
}

function locate(tasks: JSONContent[], index: number, checked: boolean): Tick {
  const text = taskWords(tasks[index]!);
  const nth = tasks.slice(0, index).filter((t) => taskWords(t) === text).length;
  return { text, nth, checked };
}

/** The same task in a working copy (found by its words): ticked there too; missing (edited away), left alone. */
function applyTick(room: Room, tick: Tick): void {
  const working = roomContent(room);
  const same = taskItems(working).filter((t) => taskWords(t) === tick.text);
  const item = same[tick.nth] ?? (same.length === 1 ? same[0] : undefined);
  if (!item || (item.attrs?.checked === true) === tick.checked) return;
  item.attrs = { ...item.attrs, checked: tick.checked };
  replaceRoomContent(room, working);
}

/**
 * Nobody has the page open, but a working copy is stored: one still at the version ticked
 * follows (tick and version), so opening it later shows no change from outside. An older one
 * is left to catch up as it would after any new version.
 */
function tickStoredCopy(core: Core, pageId: string, at: { version: number; tick: Tick }, version: number): void {
  const found = loadDocument(core, pageId);
  if (!found || found.version !== at.version) return;
  const room = new Room(pageId, new Y.Doc(), () => {});
  Y.applyUpdate(room.doc, found.state, SERVER_ORIGIN);
  applyTick(room, at.tick);
  room.setVersion(version);
  saveDocuments(core, [{ pageId, state: Y.encodeStateAsUpdate(room.doc), version }]);
  room.doc.destroy();
}
