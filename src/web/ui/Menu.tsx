/**
 * Drop-down menus: Radix DropdownMenu (arrow keys, typeahead, Escape) in our style. Radix is a
 * chunk loaded after the first paint (ui/overlays.ts); until it is there the trigger is drawn
 * as Radix draws it (closed), and a press on it opens the menu as soon as the chunk arrives.
 */
import { cloneElement, isValidElement, useState, type KeyboardEvent, type PointerEvent, type ReactElement, type ReactNode } from "react";
import { loadOverlays, overlays, useOverlays } from "./overlays";
import "./menu.css";

interface MenuProps {
  trigger: ReactNode;
  children: ReactNode;
  align?: "start" | "end";
  label?: string;
}

type TriggerProps = { onPointerDown?(e: PointerEvent): void; onKeyDown?(e: KeyboardEvent): void };

export function Menu(props: MenuProps) {
  const radix = useOverlays();
  const [asked, setAsked] = useState(false);
  if (radix) return <radix.Menu {...props} defaultOpen={asked} />;
  const trigger = props.trigger;
  if (!isValidElement<TriggerProps>(trigger)) return <>{trigger}</>;
  // Opened before the chunk came: the same keys and button Radix's trigger answers.
  const ask = () => {
    setAsked(true);
    void loadOverlays().catch(() => setAsked(false));
  };
  return cloneElement(trigger as ReactElement<TriggerProps & Record<string, unknown>>, {
    "aria-haspopup": "menu",
    "aria-expanded": false,
    "data-state": "closed",
    onPointerDown: (e: PointerEvent) => {
      trigger.props.onPointerDown?.(e);
      if (e.button === 0 && !e.ctrlKey) ask();
    },
    onKeyDown: (e: KeyboardEvent) => {
      trigger.props.onKeyDown?.(e);
      if (e.key === "Enter" || e.key === " " || e.key === "ArrowDown") {
        e.preventDefault();
        ask();
      }
    },
  });
}

// Drawn only inside an open menu, when the chunk is there.
export function MenuItem(props: { children: ReactNode; onSelect(): void; danger?: boolean; icon?: ReactNode }) {
  const { MenuItem: Item } = overlays();
  return <Item {...props} />;
}

export function MenuSeparator() {
  const { MenuSeparator: Separator } = overlays();
  return <Separator />;
}

export function MenuLabel({ children }: { children: ReactNode }) {
  const { MenuLabel: Label } = overlays();
  return <Label>{children}</Label>;
}
