/** True when a key press is typing (a field, the editor), not a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== "string") return false;
  return (
    el.isContentEditable ||
    /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) ||
    !!el.closest?.("[contenteditable]:not([contenteditable=false]), [role=textbox], [role=combobox], [role=searchbox]")
  );
}

/** Regions where the page's single-key shortcuts stay off (the page's side panel). */
const NO_SHORTCUTS = "[data-no-shortcuts]";

/**
 * True when a bare key (no Ctrl, ⌘ or Alt) may act as a shortcut of the whole screen: not typed
 * into a field, a comment box or the editor, not part of an input method's composition, not
 * already taken by something nearer the focus, not from the page's side panel, and with no
 * dialog or menu open. Every global single-key shortcut ("e", "/") asks here, so none fires
 * while someone writes.
 */
export function isBareShortcut(e: KeyboardEvent, key: string): boolean {
  return (
    e.key === key &&
    !e.ctrlKey &&
    !e.metaKey &&
    !e.altKey &&
    !e.isComposing &&
    !e.defaultPrevented &&
    !isTyping(e.target) &&
    !(e.target as Element | null)?.closest?.(NO_SHORTCUTS) &&
    !document.querySelector("[role=dialog], [role=menu]")
  );
}
