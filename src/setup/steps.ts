/**
 * The first-run wizard's steps, in order, and what the server sees as evidence that each one
 * happened. The wizard's choices are made through the APIs that own them (settings, spaces,
 * invites); a step only records progress, so its evidence is read from where those APIs write.
 */
import type { Core } from "../core";
import type { UserCaller } from "../identity/caller";
import { getSettings } from "../settings/service";
import { isSettingStored } from "../settings/store";
import { firstLiveSpace } from "./store";
import { SETTING_DEFAULTS } from "../common/settings/rules";
import { readPolicy } from "../backups/policy";
import { nextScheduledRun } from "../backups/schedule";

/**
 * Only steps for what Cairn does today: e-mail sending, single sign-on and two-factor sign-in
 * get a step when they exist, not before (a step that can only be skipped promises a feature).
 */
export const STEP_KEYS = ["welcome", "account", "instance", "registration", "permissions", "backups", "first-space", "done"] as const;
export type StepKey = (typeof STEP_KEYS)[number];

export const isStepKey = (key: string): key is StepKey => (STEP_KEYS as readonly string[]).includes(key);

export interface Evidence {
  present: boolean;
  /** What the server sees, or what is missing, in plain words. */
  detail: string;
}

/** What the step reads to decide; `recorded` is whether the step itself was marked done. */
interface EvidenceInput {
  core: Core;
  owner: UserCaller;
  recorded: boolean;
}

export interface StepDef {
  key: StepKey;
  title: string;
  /** Whether POST /api/setup/steps/{key} takes skipped: true. */
  skippable: boolean;
  /** False while the feature the step sets up is not built: it can only be skipped. */
  available: boolean;
  evidence(input: EvidenceInput): Evidence;
  /** What the step saw when marked done (kept with its row; shown back to the owner). */
  choice?(core: Core): Record<string, unknown>;
}

const present = (detail: string): Evidence => ({ present: true, detail });
const missing = (detail: string): Evidence => ({ present: false, detail });

export const STEPS: StepDef[] = [
  {
    key: "welcome",
    title: "Welcome",
    skippable: false,
    available: true,
    evidence: () => present("Nothing to check: the welcome screen only explains what follows."),
  },
  {
    key: "account",
    title: "Your account",
    skippable: false,
    available: true,
    evidence: ({ owner }) =>
      owner.user.displayName.trim() && owner.user.passwordHash
        ? present(`The owner account "${owner.user.displayName}" has a display name and a password.`)
        : missing("The owner account needs a display name and a password."),
  },
  {
    key: "instance",
    title: "Name this wiki",
    skippable: true,
    available: true,
    evidence: ({ core }) => {
      // "Set" means stored by PUT /api/admin/settings (which stores only a changed value).
      const stored = isSettingStored(core, "instanceName");
      const name = getSettings(core).instanceName;
      return stored || name !== SETTING_DEFAULTS.instanceName
        ? present(`The instance is named "${name}".`)
        : missing(
            `The instance name is still the default ("${SETTING_DEFAULTS.instanceName}"): set ` +
              `instanceName with PUT /api/admin/settings, or skip the step to keep it.`,
          );
    },
  },
  {
    key: "registration",
    title: "Who can join",
    skippable: true,
    available: true,
    evidence: ({ core, recorded }) => {
      const open = getSettings(core).allowPublicRegistration;
      return recorded
        ? present(`Recorded: ${open ? "anyone may register" : "people join by invite only"}.`)
        : missing("No choice recorded: choose invite-only or open registration (allowPublicRegistration), then mark this step done.");
    },
    choice: (core) => ({ allowPublicRegistration: getSettings(core).allowPublicRegistration }),
  },
  {
    key: "permissions",
    title: "Default access",
    skippable: true,
    available: true,
    evidence: ({ core, recorded }) => {
      const open = getSettings(core).allowPublicSpaces;
      return recorded
        ? present(`Recorded: new spaces are open to everyone signed in; public spaces are ${open ? "allowed" : "not allowed"}.`)
        : missing(
            "No choice recorded: confirm the default access of new spaces and whether spaces " +
              "may be public (allowPublicSpaces), then mark this step done.",
          );
    },
    choice: (core) => ({ allowPublicSpaces: getSettings(core).allowPublicSpaces }),
  },
  {
    key: "backups",
    title: "Backups",
    skippable: true,
    available: true,
    // On from the first start (backups/policy.ts DEFAULT_POLICY): the step shows when, and is done
    // while a schedule is set.
    evidence: ({ core }) => {
      const policy = readPolicy(core);
      const next = nextScheduledRun(core);
      return policy.schedule && next
        ? present(
            `Backups are scheduled ("${policy.schedule}", server time); the next runs at ${next}. Retention keeps ` +
              `the newest ${policy.keepCount} and those from the last ${policy.keepDays} days.`,
          )
        : missing(
            "No backups are scheduled: set a schedule in Administration → Backups (PUT /api/admin/backups/policy), or skip this step.",
          );
    },
  },
  {
    key: "first-space",
    title: "Your first space",
    skippable: true,
    available: true,
    evidence: ({ core }) => {
      const space = firstLiveSpace(core);
      return space
        ? present(`A space exists: "${space.name}" (${space.key}).`)
        : missing("No space exists yet: create one with POST /api/spaces, or skip this step.");
    },
  },
  {
    key: "done",
    title: "Done",
    skippable: false,
    available: true,
    evidence: () => present("Nothing to check: the last screen shows where to go next."),
  },
];

export const stepOf = (key: StepKey): StepDef => STEPS.find((s) => s.key === key)!;
