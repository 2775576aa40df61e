/**
 * What every step of the wizard shares: where it is (the step, its index, the whole state) and
 * how it moves on. Moving on records the step (done or skipped) and opens the next one; the step
 * before "done" completes the wizard, so the last screen is only ever shown to a finished setup.
 */
import { createContext, useContext, useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "wouter";
import { ApiError } from "../../api/client";
import { Button } from "../../ui/Button";
import { FormError } from "../../ui/Field";
import type { useAuthForm } from "../../lib/useAuthForm";
import { completeSetup, recordStep, type SetupState, type SetupStep, type StepKey } from "./queries";

export interface Wizard {
  state: SetupState;
  step: SetupStep;
  index: number;
  go(key: StepKey): void;
  /** Records this step (done, or skipped) and opens the next; before "done", completes the wizard. */
  advance(skipped: boolean): Promise<void>;
}

export const WizardContext = createContext<Wizard | null>(null);
export const useWizard = () => useContext(WizardContext)!;

export function useWizardValue(state: SetupState, index: number): Wizard {
  const [, navigate] = useLocation();
  const step = state.steps[index]!;
  const go = (key: StepKey) => navigate(`/welcome/${key}`);
  return {
    state,
    step,
    index,
    go,
    async advance(skipped) {
      await recordStep(step.key, skipped);
      const next = state.steps[index + 1];
      if (!next) return;
      if (next.key === "done") await completeSetup().catch(explainUnfinished);
      go(next.key);
    },
  };
}

/** A 409 from completing names the unfinished step: say which, in the wizard's words. */
function explainUnfinished(err: unknown): never {
  if (err instanceof ApiError && err.code === "conflict" && typeof err.body.step === "string") {
    throw new ApiError(
      409,
      "conflict",
      err.title,
      `Setup cannot finish yet. ${err.message} Go back to that step with the list above.`,
      undefined,
      err.body,
    );
  }
  throw err;
}

type Form = ReturnType<typeof useAuthForm>;

/**
 * One step's screen: a heading, a short lesson, the step's fields, then Back / Skip / Continue.
 * Enter continues (it is one form); the heading takes focus when a step opens without a field
 * of its own, so a screen reader reads where the person is.
 */
export function StepForm({
  form,
  intro,
  children,
  onContinue,
  continueLabel = "Continue",
  skipOnly = false,
  outside,
}: {
  form: Form;
  intro: ReactNode;
  children?: ReactNode;
  /** The step's own work before it is recorded as done; default: just record it. */
  onContinue?: () => Promise<void>;
  continueLabel?: string;
  /** A step whose feature is not built yet: the one way on is to skip it. */
  skipOnly?: boolean;
  /** Rendered beside the form, not in it (a dialog with a form of its own: its submit must not reach this one). */
  outside?: ReactNode;
}) {
  const wizard = useWizard();
  const heading = useRef<HTMLHeadingElement>(null);
  const { step, index, state } = wizard;
  useEffect(() => {
    // A step whose field took focus (autoFocus) keeps it; otherwise the heading takes it.
    const form = heading.current?.closest("form");
    if (!form?.contains(document.activeElement)) heading.current?.focus();
  }, [step.key]);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    void form.run(async () => {
      if (skipOnly) return wizard.advance(true);
      if (onContinue) await onContinue();
      else await wizard.advance(false);
    });
  };
  const skip = () => void form.run(() => wizard.advance(true));
  const previous = state.steps[index - 1];
  return (
    <>
      <form className="setup-step" onSubmit={submit} noValidate aria-labelledby="setup-step-title">
        <h1 id="setup-step-title" ref={heading} tabIndex={-1}>
          {step.title}
        </h1>
        <div className="setup-intro">{intro}</div>
        {children}
        <FormError error={form.formError} />
        <div className="setup-actions">
          {previous ? (
            <Button onClick={() => wizard.go(previous.key)} disabled={form.busy}>
              Back
            </Button>
          ) : null}
          <span className="setup-actions-gap" />
          {step.skippable && !skipOnly ? (
            <Button variant="ghost" onClick={skip} disabled={form.busy}>
              Skip
            </Button>
          ) : null}
          <Button type="submit" variant="primary" busy={form.busy}>
            {skipOnly ? "Skip for now" : continueLabel}
          </Button>
        </div>
      </form>
      {outside}
    </>
  );
}
