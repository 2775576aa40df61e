/**
 * Editing a page together: the document is the room's (everyone's typing merges live, each person's
 * caret is drawn, undo is per person), kept on this device too so no edit is lost to a dropped
 * connection. Update publishes the room's state as the next version; the title, emoji and labels
 * keep their HTTP path. Changes from outside arrive as tracked changes. Publishing is never silent
 * (docs/decisions.md, "Publishing stays an explicit step"): Update names whose changes it publishes
 * when they are not only this person's, and Close with unpublished changes of one's own asks what
 * to do.
 */
import { useEditor } from "@tiptap/react";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useLocation } from "wouter";
import { ApiError, type DocJson } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { Page, Space, UnpublishedAuthor } from "../../api/types";
import { errorText, useAction } from "../../lib/mutation";
import { peopleList } from "../../lib/people";
import { pagePath } from "../../lib/slug";
import { Button } from "../../ui/Button";
import { ConfirmDialog, Dialog, DialogActions } from "../../ui/Dialog";
import { toast } from "../../ui/toast";
import type { CollabRoom } from "./collab-provider";
import { CollabNotice, CollabStatus } from "./CollabStatus";
import { EditHeader } from "./EditHeader";
import { EditorSurface, primaryKeyHandler } from "./EditorSurface";
import { editorExtensions } from "./extensions";
import { ChangePopover, TrackedChangesBar, usePendingChanges } from "./TrackedChangesBar";
import { CloseDialog, WhoseChangesDialog } from "./PublishDialogs";
import { fetchUnpublished, useDiscardMineMutation, usePublishRoomMutation, type PageBody } from "./queries";
import { refusedLinkOf, selectRefusedLink } from "./refused-link";
import { caretAtFirstChange, takeReviewRequest } from "./review";
import { settle } from "./tracked";
import { useUploads } from "./useUploads";

export function CollabSession({ page, space, room }: { page: Page; space: Space; room: CollabRoom }) {
  const [, navigate] = useLocation();
  const state = useSyncExternalStore(room.subscribe, room.getSnapshot);
  const [title, setTitle] = useState(page.title);
  // Only a title this person changed is sent: another's renaming must not be undone by Update.
  const [titleTouched, setTitleTouched] = useState(false);
  const [comment, setComment] = useState("");
  const [asking, setAsking] = useState<"leave" | "publish" | "close" | "whose" | null>(null);
  // Who has unpublished changes in the room, as last asked (Close and Update show them).
  const [authors, setAuthors] = useState<UnpublishedAuthor[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const primaryRef = useRef<() => void>(() => {});
  const uploads = useUploads(page.id);
  const base = state.version ?? page.currentVersionNumber;

  const editor = useEditor({
    extensions: editorExtensions(
      {
        onFiles: (e, files, pos) => uploads.start(e, files, pos),
        pickImage: () => fileInput.current?.click(),
        save: () => primaryRef.current(),
      },
      room,
    ),
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: { attributes: { class: "prose page-editor" } },
  });
  const changes = usePendingChanges(editor);

  // Someone published (or a change came from outside): the page as read is no longer current.
  useEffect(() => {
    if (state.version == null || state.version === page.currentVersionNumber) return;
    void queryClient.invalidateQueries({ queryKey: keys.page(page.id) });
    void queryClient.invalidateQueries({ queryKey: keys.versions(page.id) });
  }, [state.version, page.id, page.currentVersionNumber]);
  // Opened from the reading view's Review: straight to the first unpublished change.
  useEffect(() => {
    if (!takeReviewRequest()) return;
    // The room's document reaches the editor a moment after it is made (the sync plugin's
    // first render); the caret is placed once it is there.
    let tries = 0;
    const timer = setInterval(() => {
      if (editor.isDestroyed || ++tries > 40) return clearInterval(timer);
      if (editor.state.doc.textContent.length === 0) return;
      clearInterval(timer);
      caretAtFirstChange(editor, page.contentJson);
    }, 50);
    return () => clearInterval(timer);
    // Once, when the session opens: page.contentJson is the version it opened on.
  }, [editor]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!titleTouched) setTitle(page.title);
  }, [page.title, titleTouched]);
  // The server closed the room for good (rights lost, page gone, space archived): stop typing
  // into a copy nobody will receive.
  const refused = state.connection === "closed" && state.closeCode !== 4429;
  useEffect(() => {
    editor.setEditable(!refused);
  }, [editor, refused]);

  // Closing the tab with edits the server may not have asks first (they stay on this device).
  useEffect(() => {
    if (!state.pending) return;
    const onLeave = (e: BeforeUnloadEvent) => e.preventDefault();
    addEventListener("beforeunload", onLeave);
    return () => removeEventListener("beforeunload", onLeave);
  }, [state.pending]);

  const me = room.user.id;
  const publishing = useAction(usePublishRoomMutation(page.id, room), {
    single: true,
    failure: (err) => {
      if (!(err instanceof ApiError && err.code === "version_conflict")) return errorText(err);
      const current = (err.body.current as Page | undefined)?.currentVersionNumber ?? err.body.currentVersionNumber;
      return (
        `Version ${String(current ?? "")} was published meanwhile; its changes reach this ` +
        `page as tracked changes. Review them, then Update again.`
      );
    },
    // A refused link: the person is taken to it (selected, scrolled to) and told there too,
    // whatever part of a long page they were looking at; the words stay under the header.
    onFailure: (err) => {
      const link = err instanceof ApiError ? refusedLinkOf(err.body) : null;
      if (link && selectRefusedLink(editor, link)) toast.error(errorText(err), { duration: 15_000 });
    },
    done: (published) => {
      if ("ask" in published) {
        setAuthors(published.ask);
        setAsking("whose");
      } else navigate(pagePath(space.key, published.saved.id, published.saved.title));
    },
    success: (published) =>
      "ask" in published
        ? null
        : published.seen.length
          ? `Published version ${published.saved.currentVersionNumber}: changes by ${peopleList(authors, me)}`
          : `Saved: version ${published.saved.currentVersionNumber}`,
  });
  /**
   * `seen`: the others whose changes this person was shown and agreed to publish. Without it,
   * the room's list is asked first, and anyone else in it is named before anything goes out.
   */
  const publish = (seen?: string[]) => {
    // Update publishes the room's state, which lacks what this device has not delivered yet.
    if (state.connection !== "connected")
      return publishing.setError(
        "Update needs the connection: what you typed has not reached the others yet. It is " +
          "kept on this device; try again when the connection is back.",
      );
    const body: PageBody = {
      ...(titleTouched && title.trim() ? { title } : {}),
      baseVersion: base,
      ...(comment.trim() ? { changeComment: comment.trim() } : {}),
    };
    void publishing.run({ seen, body, doc: () => editor.getJSON() as DocJson });
  };
  const primary = () => (changes.length > 0 ? setAsking("publish") : void publish());
  primaryRef.current = primary;
  const leave = () => {
    // The reading view's "Unpublished changes by …" is asked again on the way back.
    void queryClient.invalidateQueries({ queryKey: keys.unpublished(page.id) });
    navigate(pagePath(space.key, page.id, title || page.title));
  };
  /**
   * Close: edits not delivered yet (offline) are kept on this device, as the first dialog says.
   * Otherwise, once everything typed has reached the room, someone with unpublished changes of
   * their own is asked what becomes of them; anyone else simply leaves.
   */
  const close = async () => {
    if (state.pending && state.connection !== "connected") return setAsking("leave");
    let list: UnpublishedAuthor[] | null = null;
    try {
      await room.flush();
      list = await fetchUnpublished(page.id);
    } catch {
      // Out of reach: nothing is lost (the room has the edits), nothing to ask.
    }
    if (!list?.some((a) => a.id === me)) return leave();
    setAuthors(list);
    discarding.setError(null);
    setAsking("close");
  };
  const discarding = useAction(useDiscardMineMutation(page.id, room), {
    done: (result) => {
      if (!result.authors.some((a) => a.id === me)) return leave();
      setAuthors(result.authors);
      discarding.setError(
        "Some of your changes were made before the server last opened this page for editing (it was closed a while, or the server " +
          "restarted), so they cannot be taken back one by one: they stay in the shared copy. Remove them by hand, or publish them.",
      );
    },
    success: (result) => (result.authors.some((a) => a.id === me) ? null : "Your changes were discarded"),
  });

  useEffect(() => {
    const onKey = primaryKeyHandler(primary, asking !== null);
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  });

  return (
    <div className="edit-session collab-session">
      <EditHeader
        page={page}
        title={title}
        onTitle={(t) => {
          setTitle(t);
          setTitleTouched(true);
        }}
        onEnterFromTitle={() => {
          editor.view.dom.focus();
          editor.commands.focus("start");
        }}
        isDraft={false}
        comment={comment}
        onComment={setComment}
        saving={publishing.busy}
        error={publishing.error ? { field: publishing.fieldError("title") ? "title" : undefined, message: publishing.error } : null}
        onPrimary={primary}
        onSaveDraft={() => undefined}
        onCancel={() => void close()}
        onDiscardDraft={() => undefined}
        cancelLabel="Close"
        status={<CollabStatus state={state} me={room.user} />}
      />
      <CollabNotice state={state} onReconnect={() => void room.reconnect()} />
      <TrackedChangesBar editor={editor} changes={changes} />
      <EditorSurface editor={editor} label="Page content" uploads={uploads} fileInput={fileInput} />
      <ChangePopover editor={editor} />
      <ConfirmDialog
        open={asking === "leave"}
        onOpenChange={(open) => setAsking(open ? "leave" : null)}
        title="Leave before your changes reach the server?"
        description="Your latest changes are kept on this device and will be merged the next time you open this page with a connection."
        confirmLabel="Leave"
        onConfirm={leave}
      />
      <CloseDialog
        open={asking === "close"}
        onOpenChange={(open) => setAsking(open ? "close" : null)}
        authors={authors}
        meId={me}
        version={base}
        busy={discarding.busy ? "discard" : publishing.busy ? "publish" : null}
        error={discarding.error}
        onPublish={() => {
          // The dialog named the others whose changes are in the copy: that is their showing.
          setAsking(changes.length > 0 ? "publish" : null);
          if (changes.length === 0) void publish(authors.filter((a) => a.id !== me).map((a) => a.id));
        }}
        onKeep={() => {
          toast.success("Kept as a draft in the shared copy: people who may edit see it as unpublished changes.");
          leave();
        }}
        onDiscard={() => void discarding.run()}
      />
      <WhoseChangesDialog
        open={asking === "whose"}
        onOpenChange={(open) => setAsking(open ? "whose" : null)}
        authors={authors}
        meId={me}
        busy={publishing.busy}
        onPublish={() => {
          setAsking(null);
          void publish(authors.filter((a) => a.id !== me).map((a) => a.id));
        }}
      />
      <Dialog
        open={asking === "publish"}
        onOpenChange={(open) => setAsking(open ? "publish" : null)}
        title="Changes from outside are waiting"
        description={
          `${changes.length} change${changes.length === 1 ? " has" : "s have"} not ` +
          `been accepted or rejected yet. Publishing accepts them.`
        }
      >
        <DialogActions>
          <Button onClick={() => setAsking(null)}>Review</Button>
          <Button
            variant="primary"
            busy={publishing.busy}
            onClick={() => {
              settle(editor, true);
              setAsking(null);
              void publish();
            }}
          >
            Accept all and publish
          </Button>
        </DialogActions>
      </Dialog>
    </div>
  );
}
