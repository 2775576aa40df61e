/**
 * The one shape of a write in the UI. The write itself is a TanStack mutation declared beside the
 * area's queries (`use…Mutation` in features/<area>/queries.ts, which also says which cached
 * answers it changes); a form or a button runs it through `useAction`, which gives the button's
 * pending state, the error's words for the form (or the field the API named), and the toast when
 * it is done. Success is a brief toast; a failure is shown next to where the person acted, or as
 * a toast when there is no form to show it in.
 */
import { useMutation, type UseMutationResult } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ApiError } from "../api/client";
import { toast } from "../ui/toast";

export interface ActionWords<TData, TVars> {
  /** The toast once it is done: fixed words, or words from the answer (nothing when it answers null). */
  success?: string | ((answer: TData, vars: TVars) => string | null | undefined);
  /** The words for a failure; the server's own sentence when absent. */
  failure?: (err: unknown, vars: TVars) => string;
  /** The field a failure belongs to (default: the one the API named), for `fieldError`. */
  fieldOf?: (err: ApiError) => string | undefined;
  /** A failure that says nothing (the person cancelled the password confirmation). */
  quiet?: (err: unknown) => boolean;
  /** A failure is a toast rather than words beside the form. */
  toastFailure?: boolean;
  /**
   * What the screen does itself with a failure before its words are shown (opens the conflict
   * view, selects the refused link in the document); `true` when that is its whole answer, so no
   * words are shown.
   */
  onFailure?: (err: unknown, vars: TVars) => boolean | void;
  /**
   * A second run while one is running is ignored (answers false): a save reached by a key as
   * well as a button must not go out twice, the second meeting the first as a conflict.
   */
  single?: boolean;
  /** What to do once it is done, before the toast (close a dialog, empty the fields). */
  done?: (answer: TData, vars: TVars) => void;
}

/** The server's sentence, or plain words when the network failed before it could answer. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof TypeError) return "Cairn could not be reached. Check your connection and try again.";
  return (err as Error)?.message ?? String(err);
}

export function useAction<TData, TVars, TContext>(
  mutation: UseMutationResult<TData, Error, TVars, TContext>,
  words: ActionWords<TData, TVars> = {},
) {
  const [failed, setFailed] = useState<{ problem: ApiError | null; field: string | undefined; text: string; vars?: TVars } | null>(null);
  // Set at once, where the mutation's own pending state reaches the screen a render later.
  const running = useRef(false);
  /** Runs the write; answers whether it was done (its failure is already shown). */
  const run = async (vars: TVars): Promise<boolean> => {
    if (words.single && running.current) return false;
    running.current = true;
    setFailed(null);
    let answer: TData;
    try {
      answer = await mutation.mutateAsync(vars);
    } catch (err) {
      running.current = false;
      if (words.quiet?.(err) || words.onFailure?.(err, vars) === true) return false;
      const text = words.failure ? words.failure(err, vars) : errorText(err);
      if (words.toastFailure) toast.error(text);
      else {
        const problem = err instanceof ApiError ? err : null;
        setFailed({ problem, field: problem ? (words.fieldOf ? words.fieldOf(problem) : problem.field) : undefined, text, vars });
      }
      return false;
    }
    running.current = false;
    words.done?.(answer, vars);
    const said = typeof words.success === "function" ? words.success(answer, vars) : words.success;
    if (said) toast.success(said);
    return true;
  };
  return {
    run,
    busy: mutation.isPending,
    /** What the running write was asked with (which row is busy), while it runs. */
    pending: mutation.isPending ? mutation.variables : undefined,
    /** The words for the form, or null. */
    error: failed?.text ?? null,
    /** The words for one field, when the API named that field. */
    fieldError: (field: string) => (failed && failed.field === field ? failed.text : null),
    /** The words for the form when the failure belongs to no field. */
    formError: failed && !failed.field ? failed.text : null,
    /** What the failed write was asked with (which row's error this is). */
    failedWith: failed?.vars,
    /** The refusal itself (its code), when the API answered one. */
    problem: failed?.problem ?? null,
    /** Words found before asking the server (two passwords differ), for the form or a field; null clears them. */
    setError: (text: string | null, field?: string) => setFailed(text === null ? null : { problem: null, field, text }),
  };
}

/**
 * A write made of steps that are already request functions of the area (a guarded save, a save
 * then a refresh), under a name saying which one runs (`pending.what`), with the same pending
 * state, error words and toast as `useAction`.
 */
export interface Task<TWhat extends string> {
  what: TWhat;
  work: () => Promise<unknown>;
}

export function useTask<TWhat extends string = string>(words: ActionWords<unknown, Task<TWhat>> = {}) {
  return useAction(useMutation({ mutationFn: (task: Task<TWhat>) => task.work() }), words);
}
