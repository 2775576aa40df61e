/**
 * The Radix parts of our menus and dialogs (arrow keys, typeahead, focus trapped, Escape): a
 * chunk of its own, with the Radix packages and floating-ui, loaded just after the app's first
 * paint (ui/overlays.ts). The rest of the app uses ui/Menu.tsx, ui/Dialog.tsx and the shell's
 * drawer, which draw without it until it is there.
 */
import * as RadixDialog from "@radix-ui/react-dialog";
import * as Radix from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";
import { X } from "./icons";

export function Menu({
  trigger,
  children,
  align = "end",
  label,
  defaultOpen,
}: {
  trigger: ReactNode;
  children: ReactNode;
  align?: "start" | "end";
  label?: string;
  defaultOpen?: boolean;
}) {
  return (
    <Radix.Root modal={false} defaultOpen={defaultOpen}>
      <Radix.Trigger asChild>{trigger}</Radix.Trigger>
      <Radix.Portal>
        <Radix.Content className="menu" align={align} sideOffset={4} aria-label={label}>
          {children}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}

export function MenuItem({
  children,
  onSelect,
  danger,
  icon,
}: {
  children: ReactNode;
  onSelect(): void;
  danger?: boolean;
  icon?: ReactNode;
}) {
  return (
    <Radix.Item className={`menu-item${danger ? " menu-item-danger" : ""}`} onSelect={onSelect}>
      {icon ? (
        <span className="menu-icon" aria-hidden="true">
          {icon}
        </span>
      ) : null}
      {children}
    </Radix.Item>
  );
}

export function MenuSeparator() {
  return <Radix.Separator className="menu-separator" />;
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <Radix.Label className="menu-label">{children}</Radix.Label>;
}

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
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className={`dialog${wide ? " dialog-wide" : ""}`} aria-describedby={description ? undefined : undefined}>
          <div className="dialog-head">
            <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
            <RadixDialog.Close asChild>
              <button type="button" className="dialog-close" aria-label="Close">
                <X size={18} />
              </button>
            </RadixDialog.Close>
          </div>
          {description ? (
            <RadixDialog.Description className="dialog-description">{description}</RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="visually-hidden">{title}</RadixDialog.Description>
          )}
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The space's sidebar as a drawer below 900 px (app/Shell.tsx). */
export function Drawer({ open, onOpenChange, children }: { open: boolean; onOpenChange(open: boolean): void; children: ReactNode }) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="drawer-overlay" />
        <RadixDialog.Content className="drawer" aria-describedby={undefined}>
          <RadixDialog.Title className="visually-hidden">Space navigation</RadixDialog.Title>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
