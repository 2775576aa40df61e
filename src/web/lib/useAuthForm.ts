import { useMutation } from "@tanstack/react-query";
import { ApiError } from "../api/client";
import { useAction } from "./mutation";

const UNREACHABLE = "Cairn could not be reached. Check your connection and try again.";

/**
 * A form whose submit is several steps (sign in, then read the session, then go on), run as one
 * write through the app's one pattern (lib/mutation.ts): busy while it runs, the API's own words
 * as the error (field or form).
 */
export function useAuthForm() {
  const action = useAction(useMutation({ mutationFn: (work: () => Promise<void>) => work() }), {
    failure: (err) => (err instanceof ApiError ? err.message : UNREACHABLE),
  });
  const error = action.problem ?? (action.error ? new ApiError(0, "network", UNREACHABLE, undefined, undefined, {}) : null);
  return {
    busy: action.busy,
    error,
    run: async (work: () => Promise<void>) => void (await action.run(work)),
    fieldError: action.fieldError,
    formError: action.formError,
    /** Forget the last error (a dialog closed and opened again starts clean). */
    clear: () => action.setError(null),
  };
}
