/**
 * Actions the API guards with a recent password confirmation (403 reauth_required): the password
 * is asked for in place, confirmed (POST /api/auth/reauth), and the action is tried again.
 */
import { useRef, useState, type ReactNode } from "react";
import { api, ApiError, data } from "../../api/client";
import { Button } from "../../ui/Button";
import { Dialog, DialogActions } from "../../ui/Dialog";
import { FormError, TextField } from "../../ui/Field";

type Pending = { resolve(ok: boolean): void };

export function useReauth(): { guarded<T>(action: () => Promise<T>): Promise<T>; dialog: ReactNode } {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = useRef<Pending | null>(null);

  const ask = () =>
    new Promise<boolean>((resolve) => {
      pending.current = { resolve };
      setPassword("");
      setError(null);
      setOpen(true);
    });

  const finish = (ok: boolean) => {
    setOpen(false);
    pending.current?.resolve(ok);
    pending.current = null;
  };

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await data(api.POST("/api/auth/reauth", { body: { password } }));
      finish(true);
    } catch (err) {
      setError(err instanceof ApiError && (err.code === "invalid_credentials" || err.field === "password") ? "That password is not right. Type your account's password." : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  async function guarded<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "reauth_required")) throw err;
      if (!(await ask())) throw new ApiError(403, "reauth_cancelled", "Nothing was changed: the password was not confirmed.", undefined, undefined, {});
      return action();
    }
  }

  const dialog = (
    <Dialog open={open} onOpenChange={(o) => !o && finish(false)} title="Confirm your password" description="This change needs your password, confirmed in the last five minutes.">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void confirm();
        }}
      >
        <TextField label="Your password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        <FormError error={error} />
        <DialogActions>
          <Button onClick={() => finish(false)}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Confirm and continue
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
  return { guarded, dialog };
}
