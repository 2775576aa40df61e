/**
 * The first-run wizard (/welcome/<step>): one step a screen, with where it stands among the
 * others. Only the owner sees it; once completed, only its last screen is left (other steps go
 * home), so a reload never brings the wizard back.
 */
import type { ComponentType } from "react";
import { Link, Redirect } from "wouter";
import { Loading } from "../../app/Loading";
import { useInstance, useMe } from "../../app/session";
import { useTitle } from "../../lib/title";
import { Check } from "../../ui/icons";
import { PermissionsStep, RegistrationStep } from "./AccessSteps";
import { InstanceStep } from "./InstanceStep";
import { BackupsStep } from "./BackupsStep";
import { AccountStep, WelcomeStep } from "./IntroSteps";
import { useSetup, type SetupState, type StepKey } from "./queries";
import { DoneStep, FirstSpaceStep } from "./SpaceSteps";
import { useWizardValue, WizardContext } from "./wizard";
import "./setup.css";

const SCREENS: Record<StepKey, ComponentType> = {
  welcome: WelcomeStep,
  account: AccountStep,
  instance: InstanceStep,
  registration: RegistrationStep,
  permissions: PermissionsStep,
  backups: BackupsStep,
  "first-space": FirstSpaceStep,
  done: DoneStep,
};

export default function SetupWizard({ step }: { step?: string }) {
  const me = useMe();
  const isOwner = me.data?.role === 2;
  const setup = useSetup(isOwner);
  if (me.isPending) return <Loading />;
  if (!isOwner) return <Redirect to="/" replace />;
  if (setup.isPending) return <Loading />;
  if (setup.isError) {
    return (
      <main id="main" className="setup-page">
        <p className="form-error" role="alert">
          The setup could not be loaded: {setup.error.message}. Reload the page to try again.
        </p>
      </main>
    );
  }
  const state = setup.data;
  const index = state.steps.findIndex((s) => s.key === step);
  if (index < 0) return <Redirect to={`/welcome/${state.completed ? "done" : (state.currentStep ?? "done")}`} replace />;
  if (state.completed && step !== "done") return <Redirect to="/" replace />;
  // The last screen follows completion; before it, the wizard resumes where it stands.
  if (!state.completed && step === "done") return <Redirect to={`/welcome/${state.currentStep ?? "first-space"}`} replace />;
  return <WizardScreen state={state} index={index} />;
}

function WizardScreen({ state, index }: { state: SetupState; index: number }) {
  const wizard = useWizardValue(state, index);
  const instance = useInstance();
  const Screen = SCREENS[wizard.step.key];
  useTitle(wizard.step.title, "Set up");
  return (
    <WizardContext.Provider value={wizard}>
      <main id="main" className="setup-page">
        <div className="setup-shell">
          <p className="setup-brand">
            <span className="brand-mark" aria-hidden="true">
              ◆
            </span>{" "}
            {instance.data?.name ?? "Cairn"} · Setup
          </p>
          <Progress state={state} index={index} />
          <div className="setup-card">
            <Screen key={wizard.step.key} />
          </div>
        </div>
      </main>
    </WizardContext.Provider>
  );
}

/** Step n of N with a bar; on wide screens, every step's name and state as a list. */
function Progress({ state, index }: { state: SetupState; index: number }) {
  const total = state.steps.length;
  return (
    <nav className="setup-progress" aria-label="Setup steps">
      <p className="setup-count" aria-live="polite">
        Step {index + 1} of {total}
        <span className="setup-count-name">: {state.steps[index]!.title}</span>
      </p>
      <div className="setup-bar" aria-hidden="true">
        <span style={{ width: `${((index + 1) / total) * 100}%` }} />
      </div>
      <ol className="setup-list">
        {state.steps.map((s, i) => (
          <li key={s.key} className={`is-${s.state}${i === index ? " is-current" : ""}`} aria-current={i === index ? "step" : undefined}>
            <span className="setup-dot" aria-hidden="true">
              {s.state === "done" ? <Check size={12} /> : s.state === "skipped" ? "–" : i + 1}
            </span>
            {/* Steps already decided can be opened again until setup is completed. */}
            {!state.completed && s.state !== "pending" && i !== index ? (
              <Link href={`/welcome/${s.key}`}>
                {s.title}
                <span className="visually-hidden"> ({s.state})</span>
              </Link>
            ) : (
              <span>
                {s.title}
                {s.state !== "pending" ? <span className="visually-hidden"> ({s.state})</span> : null}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
