/**
 * The first-run wizard's store: the only module that writes `setup_steps` and `setup_completion`,
 * and the evidence its steps read from other domains' tables.
 */
import { isNull } from "drizzle-orm";
import type { Core } from "../core";
import { spaces } from "../spaces/tables";
import { setupCompletion, setupSteps } from "./tables";

export type SetupStepRow = typeof setupSteps.$inferSelect;

export function setupCompletionRow(core: Core) {
  return core.db.select().from(setupCompletion).get() ?? null;
}

export function setupStepRows(core: Core): SetupStepRow[] {
  return core.db.select().from(setupSteps).all();
}

/** Records a step's state and choice, replacing what was recorded. */
export function upsertSetupStep(core: Core, row: SetupStepRow): void {
  const { key: _, ...set } = row;
  core.db.insert(setupSteps).values(row).onConflictDoUpdate({ target: setupSteps.key, set }).run();
}

/** Records steps never recorded before (finishing the wizard marks the pending ones done). */
export function insertSetupSteps(core: Core, rows: SetupStepRow[]): void {
  for (const row of rows) core.db.insert(setupSteps).values(row).run();
}

export function insertSetupCompletion(core: Core, completedById: string, completedAt: string): void {
  core.db.insert(setupCompletion).values({ id: 1, completedById, completedAt }).run();
}

/** A space that is not staged (an import's space being written is not one yet), if any. */
export function firstLiveSpace(core: Core): { key: string; name: string } | undefined {
  return core.db.select({ key: spaces.key, name: spaces.name }).from(spaces).where(isNull(spaces.stagedAt)).limit(1).get();
}
