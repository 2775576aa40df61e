import { useState } from "react";
import { ApiError } from "../../api/client";

/** A form's submit: busy while it runs, the API's own words as the error (field or form). */
export function useAuthForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, "network", "Cairn could not be reached. Check your connection and try again.", undefined, undefined, {}));
    } finally {
      setBusy(false);
    }
  };
  /** The message for one field, when the API named it. */
  const fieldError = (field: string) => (error?.field === field ? error.message : null);
  const formError = error && !error.field ? error.message : null;
  /** Forget the last error (a dialog closed and opened again starts clean). */
  const clear = () => setError(null);
  return { busy, error, run, fieldError, formError, clear };
}
