import { describe as group, expect, test } from "bun:test";
import { describe } from "./describe";
import type { Notification } from "./queries";

const base: Notification = {
  id: "n1",
  action: "page.updated",
  targetType: "page",
  targetId: "p1",
  spaceId: "s1",
  pageId: "11111111-1111-4111-8111-111111111111",
  actorId: "u1",
  actorName: "Olive Owner",
  details: { pageTitle: "Road map", spaceKey: "ENG", spaceName: "Engineering", edits: 1 },
  createdAt: "2026-01-01T00:00:00Z",
  readAt: null,
};

group("a notification in plain words", () => {
  test("an edit names who, the page (linked) and its space", () => {
    expect(describe(base)).toEqual({
      who: "Olive Owner",
      what: "edited",
      where: "Road map",
      href: "/s/ENG/p/11111111-1111-4111-8111-111111111111-road-map",
      excerpt: null,
      space: "Engineering",
    });
  });
  test("edits folded together are counted", () => {
    expect(describe({ ...base, details: { ...base.details, edits: 3 } }).what).toBe("made 3 edits to");
  });
  test("a comment carries its excerpt", () => {
    expect(describe({ ...base, action: "comment.created", details: { ...base.details, excerpt: "Looks good" } })).toMatchObject({
      what: "commented on",
      excerpt: "Looks good",
    });
  });
  test("a mention or a comment opens the page with its thread open in the comments panel", () => {
    const details = { ...base.details, commentId: "c2", threadId: "c1", excerpt: "@Bea Builder, see this" };
    const opened = "/s/ENG/p/11111111-1111-4111-8111-111111111111-road-map?panel=comments&comment=c1";
    expect(describe({ ...base, action: "mention", targetType: "comment", targetId: "c2", details })).toMatchObject({
      what: "mentioned you on",
      href: opened,
    });
    expect(describe({ ...base, action: "comment.created", targetType: "comment", targetId: "c2", details }).href).toBe(opened);
    // A mention in the page's own text opens the page.
    expect(describe({ ...base, action: "mention", targetType: "page", targetId: base.pageId! }).href).toBe(
      "/s/ENG/p/11111111-1111-4111-8111-111111111111-road-map",
    );
  });
  test("what Cairn did leads to where it can be fixed", () => {
    expect(
      describe({ ...base, action: "token.expiring", pageId: null, spaceId: null, actorName: null, details: { name: "CI deploy" } }),
    ).toMatchObject({ who: "Cairn", where: "CI deploy", href: "/settings/tokens" });
    expect(
      describe({
        ...base,
        action: "webhook.disabled",
        pageId: null,
        actorName: null,
        details: { spaceKey: "ENG", spaceName: "Engineering" },
      }),
    ).toMatchObject({ where: "Engineering", href: "/s/ENG/settings/webhooks" });
  });
  test("a backup target set or removed tells the owner where copies go, and leads to the targets", () => {
    const target = {
      ...base,
      action: "backup.target_changed",
      targetType: "backup",
      targetId: "target:s3",
      pageId: null,
      spaceId: null,
      actorName: "Ada Admin",
    };
    expect(describe({ ...target, details: { slot: "s3", action: "added", where: "https://s3.example.com/loot" } })).toEqual({
      who: "Ada Admin",
      what: "set a new place for copies of every backup:",
      where: "https://s3.example.com/loot",
      href: "/admin/backups#backups-targets",
      excerpt: null,
      space: null,
    });
    expect(describe({ ...target, details: { slot: "directory", action: "removed", where: "/mnt/usb/cairn" } })).toMatchObject({
      what: "removed a place backups are copied to:",
      where: "/mnt/usb/cairn",
    });
  });
});
