/**
 * The one dialog: Radix Dialog (focus trapped, Escape closes, labelled by its title), styled
 * with our tokens. Destructive confirmations use ConfirmDialog, which names what will be lost.
 */
import * as Radix from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { Button } from "./Button";
import { X } from "./icons";
import "./dialog.css";

export interface DialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  /** Wider dialogs (a comparison, a move picker). */
  wide?: boolean;
}

export function Dialog({ open, onOpenChange, title, description, children, wide }: DialogProps) {
  return (
    <Radix.Root open={open} onOpenChange={onOpenChange}>
      <Radix.Portal>
        <Radix.Overlay className="dialog-overlay" />
        <Radix.Content className={`dialog${wide ? " dialog-wide" : ""}`} aria-describedby={description ? undefined : undefined}>
          <div className="dialog-head">
            <Radix.Title className="dialog-title">{title}</Radix.Title>
            <Radix.Close asChild>
              <button type="button" className="dialog-close" aria-label="Close">
                <X size={18} />
              </button>
            </Radix.Close>
          </div>
          {description ? <Radix.Description className="dialog-description">{description}</Radix.Description> : <Radix.Description className="visually-hidden">{title}</Radix.Description>}
          {children}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
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
        {error ? <p className="form-error" role="alert">{error}</p> : null}
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
