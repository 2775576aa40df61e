// The scheduler's one cron rule (moved here from the backups' schedule, its first user).
import { expect, test } from "bun:test";
import { nextCronRun as nextRunAfter } from "./scheduler";

// The machine's zone decides local time; these cases hold in any zone without daylight saving
// at these dates, and state the rule: the answer is the cron's next wall-clock time.
const local = (y: number, mo: number, d: number, h: number, mi = 0) => new Date(y, mo - 1, d, h, mi).getTime();

test("daily at 03:00 local: later the same night, else the next night", () => {
  expect(nextRunAfter("0 3 * * *", local(2026, 11, 24, 1, 30))).toBe(local(2026, 11, 24, 3));
  expect(nextRunAfter("0 3 * * *", local(2026, 11, 24, 3))).toBe(local(2026, 11, 25, 3));
  expect(nextRunAfter("0 3 * * *", local(2026, 11, 24, 20))).toBe(local(2026, 11, 25, 3));
});

test("other expressions: every six hours, Sundays at 04:15", () => {
  expect(nextRunAfter("0 */6 * * *", local(2026, 11, 24, 7))).toBe(local(2026, 11, 24, 12));
  // 2026-11-29 is a Sunday.
  expect(nextRunAfter("15 4 * * 0", local(2026, 11, 24, 7))).toBe(local(2026, 11, 29, 4, 15));
});

test("an expression that is not one, or never fires, has no next run", () => {
  expect(nextRunAfter("not cron", Date.now())).toBeNull();
  expect(nextRunAfter("0 3 31 2 *", Date.now())).toBeNull();
});
