/** Drop-down menus: Radix DropdownMenu (arrow keys, typeahead, Escape) in our style. */
import * as Radix from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";
import "./menu.css";

export function Menu({ trigger, children, align = "end", label }: { trigger: ReactNode; children: ReactNode; align?: "start" | "end"; label?: string }) {
  return (
    <Radix.Root modal={false}>
      <Radix.Trigger asChild>{trigger}</Radix.Trigger>
      <Radix.Portal>
        <Radix.Content className="menu" align={align} sideOffset={4} aria-label={label}>
          {children}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}

export function MenuItem({ children, onSelect, danger, icon }: { children: ReactNode; onSelect(): void; danger?: boolean; icon?: ReactNode }) {
  return (
    <Radix.Item className={`menu-item${danger ? " menu-item-danger" : ""}`} onSelect={onSelect}>
      {icon ? <span className="menu-icon" aria-hidden="true">{icon}</span> : null}
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
