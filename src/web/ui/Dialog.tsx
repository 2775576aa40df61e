/**
 * The one dialog: Radix Dialog (focus trapped, Escape closes, labelled by its title), styled
 * with our tokens. Destructive confirmations use ConfirmDialog, which names what will be lost.
 */
import { useEffect, useState, type ReactNode } from "react";
import { Button } from "./Button";
import { loadOverlays, useOverlays, type Overlays } from "./overlays";
import "./dialog.css";

export type DialogProps = Parameters<Overlays["Dialog"]>[0];

/**
 * Radix is a chunk loaded after the first paint (ui/overlays.ts): a dialog is never open on a
 * first paint, and one opened before the chunk is there shows when it arrives.
 */
export function Dialog(props: DialogProps) {
  const radix = useOverlays();
  const [failed, setFailed] = useState(false);
  const ask = props.open && !radix && !failed;
  useEffect(() => void (ask && loadOverlays().catch(() => setFailed(true))), [ask]);
  return radix ? <radix.Dialog {...props} /> : null;
}

export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="dialog-actions">{children}</div>;
}

export interface ConfirmProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  /** What will be lost, in plain words. */
  description: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  onConfirm(): void;
  children?: ReactNode;
}

export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, busy, error, onConfirm, children }: ConfirmProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm();
        }}
      >
        {children}
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <DialogActions>
          <Button onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="danger" busy={busy}>
            {confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
