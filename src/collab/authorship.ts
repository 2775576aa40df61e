/**
 * Who has unpublished changes in a room's working copy (docs/decisions.md, "Publishing stays an
 * explicit step"), and how one person's own changes are taken back. A person is recorded when a
 * change of theirs (from any of their connections) changes the document; the list empties when a
 * version is published from the room, or when the working copy is found equal to the published
 * version again (checked lazily: when someone asks, and when the last person leaves).
 *
 * Each person's changes while the room is loaded are also followed by a Yjs UndoManager of
 * their own (tracking their connections as origins), so "Discard mine" can undo exactly them on
 * the server, whoever typed around them meanwhile. Changes from before the room was loaded
 * (kept from an earlier session, across an unload or a restart) are known only as the person's
 * name: they cannot be taken back one by one.
 */
import * as Y from "yjs";

export interface Author {
  userId: string;
  /** First and latest change since the last published version (epoch ms). */
  since: number;
  at: number;
}

export class Authorship {
  private readonly people = new Map<string, Author>();
  /** People whose changes all happened while the room was loaded (all undoable). */
  private readonly earlier = new Set<string>();
  private readonly undo = new Map<string, Y.UndoManager>();
  /** The list changed since it was last saved. */
  dirty = false;
  /** The document changed since it was last compared with the published version. */
  unchecked = false;

  constructor(private readonly fragment: Y.XmlFragment) {}

  /** The list as stored (the room's load): those changes came before this load. */
  restore(authors: Author[]): void {
    for (const a of authors) {
      this.people.set(a.userId, { ...a });
      this.earlier.add(a.userId);
    }
  }

  /** A connection of this person joined: its changes are theirs to undo. */
  follow(userId: string, origin: object): void {
    let manager = this.undo.get(userId);
    if (!manager) {
      // One stack item per minute of typing is plenty: the whole stack is undone at once.
      manager = new Y.UndoManager(this.fragment, { trackedOrigins: new Set(), captureTimeout: 60_000 });
      this.undo.set(userId, manager);
    }
    manager.addTrackedOrigin(origin);
  }

  unfollow(userId: string, origin: object): void {
    this.undo.get(userId)?.removeTrackedOrigin(origin);
  }

  record(userId: string, now: number): void {
    const known = this.people.get(userId);
    if (known) known.at = now;
    else this.people.set(userId, { userId, since: now, at: now });
    this.dirty = true;
  }

  list(): Author[] {
    return [...this.people.values()].sort((a, b) => a.since - b.since);
  }

  has(userId: string): boolean {
    return this.people.has(userId);
  }

  get size(): number {
    return this.people.size;
  }

  /** Published (or back to the published version): nobody has anything unpublished. */
  clear(): void {
    if (this.people.size > 0) this.dirty = true;
    this.people.clear();
    this.earlier.clear();
    for (const manager of this.undo.values()) manager.clear();
    this.unchecked = false;
  }

  /**
   * Takes back this person's changes made while the room was loaded (one server transaction,
   * the UndoManager's: not recorded as anyone's change). They leave the list unless they had
   * changes from before the load, which cannot be told apart. Answers whether anything changed.
   */
  discard(userId: string): boolean {
    const manager = this.undo.get(userId);
    let undone = false;
    if (manager) {
      while (manager.undoStack.length > 0) undone = manager.undo() !== null || undone;
      manager.clear();
    }
    if (!this.earlier.has(userId) && this.people.delete(userId)) this.dirty = true;
    return undone;
  }

  destroy(): void {
    for (const manager of this.undo.values()) manager.destroy();
    this.undo.clear();
  }
}
