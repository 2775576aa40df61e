import { t } from "elysia";
import { STEP_KEYS } from "./steps";

const StepKey = t.UnionEnum(STEP_KEYS, {
  description: "welcome, account, instance, registration, permissions, backups, first-space, done",
});

export const SetupStep = t.Object(
  {
    key: StepKey,
    title: t.String(),
    state: t.Union([t.Literal("pending"), t.Literal("done"), t.Literal("skipped")]),
    skippable: t.Boolean({ description: "welcome, account and done cannot be skipped" }),
    available: t.Boolean({
      description: "False while the feature a step sets up is not built: the step can only be skipped (no step is, today)",
    }),
    evidence: t.Object(
      { present: t.Boolean(), detail: t.String({ description: "What the server sees, or what is missing, in plain words" }) },
      { description: "What marking the step done (or completing the wizard) checks" },
    ),
    choice: t.Nullable(
      t.Record(t.String(), t.Unknown(), {
        description: "What the step recorded when marked done (registration: allowPublicRegistration; permissions: allowPublicSpaces)",
      }),
    ),
    updatedAt: t.Nullable(t.String()),
  },
  { title: "SetupStep" },
);

export const SetupState = t.Object(
  {
    completed: t.Boolean(),
    completedAt: t.Nullable(t.String()),
    currentStep: t.Nullable(StepKey, { description: "The first pending step, where the wizard resumes" }),
    steps: t.Array(SetupStep, { description: "In the wizard's order" }),
  },
  { title: "SetupState" },
);

export const StepParams = t.Object({ key: t.String({ minLength: 1, maxLength: 50 }) });

export const StepBody = t.Object(
  { skipped: t.Boolean({ description: "true: skip the step (only a skippable one); false: mark it done (its evidence must be there)" }) },
  { title: "SetupStepChange" },
);
