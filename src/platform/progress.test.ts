import { describe, expect, test } from "bun:test";
import { ManualClock } from "./clock";
import { AppError } from "./errors";
import { KEEP_FINISHED_MS, KEEP_SILENT_MS, NO_PROGRESS, ProgressBoard } from "./progress";

const ID = "export-0001";

function codeOf(fn: () => unknown): { code: string; field?: string } | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { code: err.problemCode, field: err.extras.field };
  }
}

describe("progress ids", () => {
  test("no id: nothing is kept", () => {
    const board = new ProgressBoard();
    expect(board.start(undefined, "u1")).toBe(NO_PROGRESS);
    expect(board.size).toBe(0);
  });

  test.each(["short", "a".repeat(65), "has space1", "slash/abcd", "dots.abcdef", "émoji-abcd", ""])(
    "malformed %p: 400 naming progress",
    (id) => {
      expect(codeOf(() => new ProgressBoard().start(id, "u1"))).toEqual({ code: "validation_failed", field: "progress" });
    },
  );

  test("8 and 64 characters of letters, digits, - and _ are fine", () => {
    const board = new ProgressBoard();
    board.start("aB3-_xyz", "u1");
    board.start("z".repeat(64), "u1");
    expect(board.size).toBe(2);
  });

  test("a live id again: 409 progress_in_use; once finished it may be reused", () => {
    const board = new ProgressBoard();
    const p = board.start(ID, "u1");
    expect(codeOf(() => board.start(ID, "u1"))).toEqual({ code: "progress_in_use", field: "progress" });
    p.done();
    const again = board.start(ID, "u1");
    expect(board.read(ID, "u1")).toMatchObject({ percent: 0, done: false });
    again.fail("boom", "it broke");
    expect(board.read(ID, "u1")).toMatchObject({ done: true, error: { code: "boom", message: "it broke" } });
  });

  test("ids are per user: another user's live id is not in use for me, and I cannot read theirs", () => {
    const board = new ProgressBoard();
    const mine = board.start(ID, "u1");
    const theirs = board.start(ID, "u2");
    mine.phase("pages", 4);
    mine.step(2);
    expect(board.read(ID, "u1")?.percent).toBe(50);
    expect(board.read(ID, "u2")?.percent).toBe(0);
    theirs.done();
    expect(board.read(ID, "u1")?.done).toBe(false);
    expect(board.read("unknown-id", "u1")).toBeNull();
  });

  test("anonymous: nothing is kept and nothing can be read", () => {
    const board = new ProgressBoard();
    expect(board.start(ID, null)).toBe(NO_PROGRESS);
    expect(board.size).toBe(0);
    board.start(ID, "u1");
    expect(board.read(ID, null)).toBeNull();
    // a malformed id is still refused for anonymous callers
    expect(codeOf(() => board.start("bad", null))?.code).toBe("validation_failed");
  });
});

describe("percent", () => {
  test("without weights one phase runs from 0 to 99, and done is 100", () => {
    const board = new ProgressBoard();
    const p = board.start(ID, "u1");
    expect(board.read(ID, "u1")).toEqual({ id: ID, phase: "starting", percent: 0, done: false, error: null });
    p.phase("pages", 10);
    for (let i = 0; i < 10; i++) p.step();
    expect(board.read(ID, "u1")).toMatchObject({ phase: "pages", percent: 99, done: false });
    p.step(5); // more steps than announced never go past the phase
    expect(board.read(ID, "u1")?.percent).toBe(99);
    p.done();
    expect(board.read(ID, "u1")).toEqual({ id: ID, phase: "pages", percent: 100, done: true, error: null });
  });

  test("weights split the bar between phases; the last weighted phase takes what is left", () => {
    const board = new ProgressBoard();
    const p = board.start(ID, "u1", { pages: 3, blobs: 1 });
    p.phase("pages", 100);
    p.step(50);
    expect(board.read(ID, "u1")).toMatchObject({ phase: "pages", percent: 37 });
    p.step(50);
    expect(board.read(ID, "u1")?.percent).toBe(75);
    p.phase("blobs", 2);
    expect(board.read(ID, "u1")).toMatchObject({ phase: "blobs", percent: 75 });
    p.step();
    expect(board.read(ID, "u1")?.percent).toBe(87);
    p.phase("finishing", 3); // not weighted: a new phase ends the one before (blobs: to 99), and moves nothing itself
    expect(board.read(ID, "u1")).toMatchObject({ phase: "finishing", percent: 99 });
    p.step(2);
    expect(board.read(ID, "u1")?.percent).toBe(99);
  });

  test("the bar never goes backwards, and a phase of zero steps is fine", () => {
    const board = new ProgressBoard();
    const p = board.start(ID, "u1");
    p.phase("reading", 2);
    p.step(2);
    p.phase("writing", 0);
    expect(board.read(ID, "u1")?.percent).toBe(99);
    p.step();
    expect(board.read(ID, "u1")?.percent).toBe(99);
  });

  test("after done or fail, further reports change nothing", () => {
    const board = new ProgressBoard();
    const p = board.start(ID, "u1");
    p.phase("pages", 4);
    p.step();
    p.fail("export_failed", "The disk is full");
    p.step(3);
    p.phase("other", 1);
    p.done();
    expect(board.read(ID, "u1")).toEqual({
      id: ID,
      phase: "pages",
      percent: 25,
      done: true,
      error: { code: "export_failed", message: "The disk is full" },
    });
  });

  test("a read is a copy: changing it changes nothing kept", () => {
    const board = new ProgressBoard();
    board.start(ID, "u1").fail("x", "y");
    const view = board.read(ID, "u1")!;
    view.error!.message = "changed";
    view.percent = 42;
    expect(board.read(ID, "u1")).toMatchObject({ percent: 0, error: { message: "y" } });
  });
});

describe("how long entries are kept", () => {
  test("a finished entry is readable for 10 minutes after it finished, then forgotten", () => {
    const clock = new ManualClock();
    const board = new ProgressBoard(clock);
    const p = board.start(ID, "u1");
    clock.advance(30 * 60_000); // a long export, reporting as it goes
    p.phase("pages", 1);
    clock.advance(20 * 60_000);
    p.done();
    clock.advance(KEEP_FINISHED_MS - 1);
    expect(board.read(ID, "u1")?.done).toBe(true);
    clock.advance(1);
    expect(board.read(ID, "u1")).toBeNull();
    expect(board.size).toBe(0);
  });

  test("live work that stops reporting is forgotten after an hour of silence (its id free again)", () => {
    const clock = new ManualClock();
    const board = new ProgressBoard(clock);
    const p = board.start(ID, "u1");
    p.phase("pages", 10);
    clock.advance(KEEP_SILENT_MS - 1);
    p.step();
    clock.advance(KEEP_SILENT_MS - 1);
    expect(board.read(ID, "u1")?.percent).toBe(10);
    clock.advance(1);
    expect(board.read(ID, "u1")).toBeNull();
    board.start(ID, "u1");
  });

  test("at most `max` entries: the oldest finished goes first, then the longest silent live one", () => {
    const clock = new ManualClock();
    const board = new ProgressBoard(clock, 3);
    const a = board.start("entry-aaaa", "u1");
    clock.advance(1);
    const b = board.start("entry-bbbb", "u1");
    clock.advance(1);
    board.start("entry-cccc", "u1");
    clock.advance(1);
    b.done();
    clock.advance(1);
    a.done(); // a finished after b: b is the oldest finished
    board.start("entry-dddd", "u1");
    expect(board.size).toBe(3);
    expect(board.read("entry-bbbb", "u1")).toBeNull();
    expect(board.read("entry-aaaa", "u1")?.done).toBe(true);
    board.start("entry-eeee", "u1");
    expect(board.read("entry-aaaa", "u1")).toBeNull();
    // all live now (c, d, e): the one silent longest (c) goes
    board.start("entry-ffff", "u1");
    expect(board.read("entry-cccc", "u1")).toBeNull();
    expect(["entry-dddd", "entry-eeee", "entry-ffff"].map((id) => board.read(id, "u1")?.done)).toEqual([false, false, false]);
  });
});
