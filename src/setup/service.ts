/**
 * The first-run wizard (GET /api/setup, POST /api/setup/steps/{key}, POST /api/setup/complete).
 * Only the owner runs it: it is the owner's first hour with a new instance; administrators
 * change the same things from the admin area. The step endpoint records progress only; the
 * choices themselves go through the APIs that own them (steps.ts reads their evidence).
 */
import type { Core } from "../core";
import { recordEvent } from "../events/outbox";
import { requireUser, type Caller, type UserCaller } from "../identity/caller";
import { TIER } from "../identity/rights";
import { iso } from "../platform/clock";
import { AppError, invalid, notFound } from "../platform/errors";
import { isStepKey, STEPS, stepOf, type Evidence, type StepKey } from "./steps";
import { insertSetupCompletion, insertSetupSteps, setupCompletionRow, setupStepRows, upsertSetupStep } from "./store";

export { STEP_KEYS } from "./steps";

const STATE = { done: 1, skipped: 2 } as const;
export type StepState = "pending" | "done" | "skipped";

export interface SetupStep {
  key: StepKey;
  title: string;
  state: StepState;
  skippable: boolean;
  available: boolean;
  evidence: Evidence;
  choice: Record<string, unknown> | null;
  updatedAt: string | null;
}

export interface SetupState {
  completed: boolean;
  completedAt: string | null;
  /** The first step still pending (where the wizard resumes); null when none is. */
  currentStep: StepKey | null;
  steps: SetupStep[];
}

/** 401 for anonymous, 403 for anyone but the owner. */
function requireOwner(caller: Caller): UserCaller {
  const user = requireUser(caller);
  if (user.role.tier !== TIER.Owner) {
    throw new AppError("permission_required", {
      extra: { permission: "owner" },
      detail: "Only the owner runs the first-run wizard; administrators change the same settings in the admin area.",
    });
  }
  return user;
}

function completionOf(core: Core) {
  return setupCompletionRow(core);
}

function rowsByKey(core: Core) {
  return new Map(setupStepRows(core).map((r) => [r.key, r]));
}

function stateOf(core: Core, owner: UserCaller): SetupState {
  const rows = rowsByKey(core);
  const completion = completionOf(core);
  const steps = STEPS.map((def): SetupStep => {
    const row = rows.get(def.key);
    const state: StepState = row?.state === STATE.done ? "done" : row?.state === STATE.skipped ? "skipped" : "pending";
    return {
      key: def.key,
      title: def.title,
      state,
      skippable: def.skippable,
      available: def.available,
      evidence: def.evidence({ core, owner, recorded: state === "done" }),
      choice: row?.choice ?? null,
      updatedAt: row?.updatedAt ?? null,
    };
  });
  return {
    completed: completion !== null,
    completedAt: completion?.completedAt ?? null,
    currentStep: steps.find((s) => s.state === "pending")?.key ?? null,
    steps,
  };
}

/** GET /api/setup (the owner). */
export function readSetup(core: Core, caller: Caller): SetupState {
  return stateOf(core, requireOwner(caller));
}

function refuseAfterCompletion(core: Core): void {
  const completion = completionOf(core);
  if (completion)
    throw new AppError(
      "conflict",
      {
        detail:
          `The setup wizard was completed on ${completion.completedAt}; its steps can no ` +
          `longer be changed. Change settings in the admin area.`,
      },
      "The setup wizard is already completed",
    );
}

/** The 409 for a step whose evidence is missing, naming it. */
const evidenceMissing = (key: StepKey, evidence: Evidence) =>
  new AppError(
    "conflict",
    { detail: `Step "${key}" is not finished: ${evidence.detail}`, extra: { step: key } },
    `The "${key}" step is not finished`,
  );

/**
 * POST /api/setup/steps/{key} (the owner):
 * 1. the key is a step (404), the wizard not completed (409);
 * 2. skipped: only a skippable step (400 naming `skipped`); done: its evidence must be there
 *    (409 naming what is missing; registration and permissions record the current setting);
 * 3. the step's row is written with a setup.step_recorded event when its state or choice changes
 *    (marking a step as it already is records nothing). Answers the whole wizard.
 */
export function recordStep(core: Core, caller: Caller, key: string, skipped: boolean): SetupState {
  const owner = requireOwner(caller);
  // 1.
  if (!isStepKey(key)) throw notFound("No such setup step");
  return core.tx(() => {
    refuseAfterCompletion(core);
    // 2.
    const def = stepOf(key);
    if (skipped && !def.skippable) throw invalid("skipped", `the "${key}" step cannot be skipped`);
    const choice = skipped ? null : (def.choice?.(core) ?? null);
    if (!skipped) {
      const evidence = def.evidence({ core, owner, recorded: true });
      if (!evidence.present) throw evidenceMissing(key, evidence);
    }
    // 3.
    const state = skipped ? STATE.skipped : STATE.done;
    const before = rowsByKey(core).get(key);
    if (!before || before.state !== state || JSON.stringify(before.choice ?? null) !== JSON.stringify(choice)) {
      const now = iso(core.clock.now());
      upsertSetupStep(core, { key, state, choice, updatedById: owner.user.id, updatedAt: now });
      recordEvent(core, {
        type: "setup.step_recorded",
        targetType: "setup",
        targetId: key,
        spaceId: null,
        actorId: owner.user.id,
        ip: owner.ip,
        data: { key, state: skipped ? "skipped" : "done", choice },
      });
    }
    return stateOf(core, owner);
  });
}

/**
 * POST /api/setup/complete (the owner):
 * 1. not completed already (409);
 * 2. every step not skipped has its evidence, in order; the first without answers 409 naming it;
 * 3. pending steps whose evidence is there are marked done, the completion is stored and
 *    setup.completed recorded, in one transaction.
 */
export function completeSetup(core: Core, caller: Caller): SetupState {
  const owner = requireOwner(caller);
  return core.tx(() => {
    // 1.
    refuseAfterCompletion(core);
    // 2.
    const current = stateOf(core, owner);
    const unfinished = current.steps.find((s) => s.state !== "skipped" && !s.evidence.present);
    if (unfinished) throw evidenceMissing(unfinished.key, unfinished.evidence);
    // 3.
    const now = iso(core.clock.now());
    for (const step of current.steps.filter((s) => s.state === "pending")) {
      insertSetupSteps(core, [
        { key: step.key, state: STATE.done, choice: stepOf(step.key).choice?.(core) ?? null, updatedById: owner.user.id, updatedAt: now },
      ]);
    }
    insertSetupCompletion(core, owner.user.id, now);
    const skipped = current.steps.filter((s) => s.state === "skipped").map((s) => s.key);
    recordEvent(core, {
      type: "setup.completed",
      targetType: "setup",
      targetId: "wizard",
      spaceId: null,
      actorId: owner.user.id,
      ip: owner.ip,
      data: { skipped },
    });
    return stateOf(core, owner);
  });
}
