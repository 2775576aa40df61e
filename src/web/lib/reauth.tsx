/**
 * Actions the API guards with a recent password confirmation (403 reauth_required): the password
 * is asked for in place, confirmed (POST /api/auth/reauth), and the action is tried again.
 */
import { useMutation } from "@tanstack/react-query";
import { useRef, useState, type ReactNode } from "react";
import { api, ApiError, data } from "../api/client";
import { Button } from "../ui/Button";
import { Dialog, DialogActions } from "../ui/Dialog";
import { FormError, TextField } from "../ui/Field";
import { errorText, useAction } from "./mutation";

type Pending = { resolve(ok: boolean): void };

export function useReauth(): { guarded<T>(action: () => Promise<T>): Promise<T>; dialog: ReactNode } {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const confirmation = useAction(
    useMutation({ mutationFn: (typed: string) => data(api.POST("/api/auth/reauth", { body: { password: typed } })) }),
    {
      failure: (err) =>
        err instanceof ApiError && (err.code === "invalid_credentials" || err.field === "password")
          ? "That password is not right. Type your account's password."
          : errorText(err),
      done: () => finish(true),
    },
  );
  const pending = useRef<Pending | null>(null);

  const ask = () =>
    new Promise<boolean>((resolve) => {
      pending.current = { resolve };
      setPassword("");
      confirmation.setError(null);
      setOpen(true);
    });

  const finish = (ok: boolean) => {
    setOpen(false);
    pending.current?.resolve(ok);
    pending.current = null;
  };

  async function guarded<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "reauth_required")) throw err;
      if (!(await ask()))
        throw new ApiError(403, "reauth_cancelled", "Nothing was changed: the password was not confirmed.", undefined, undefined, {});
      return action();
    }
  }

  const dialog = (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && finish(false)}
      title="Confirm your password"
      description="This change needs your password, confirmed in the last five minutes."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void confirmation.run(password);
        }}
      >
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus
        />
        <FormError error={confirmation.error} />
        <DialogActions>
          <Button onClick={() => finish(false)}>Cancel</Button>
          <Button type="submit" variant="primary" busy={confirmation.busy}>
            Confirm and continue
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
  return { guarded, dialog };
}
