/**
 * The list a suggestion ("/" blocks, "@" people) shows under the caret. Focus stays in the
 * editor: the list is a listbox whose active option is named by aria-activedescendant, and the
 * editor's keys (↑ ↓ Enter Escape) move and pick.
 */
import { forwardRef, useEffect, useId, useImperativeHandle, useState, type ReactNode } from "react";

export interface SuggestionListHandle {
  onKeyDown(event: KeyboardEvent): boolean;
}

export interface SuggestionListProps<T> {
  items: T[];
  label: string;
  empty: string;
  render(item: T): ReactNode;
  pick(item: T): void;
}

function SuggestionListInner<T>({ items, label, empty, render, pick }: SuggestionListProps<T>, ref: React.Ref<SuggestionListHandle>) {
  const [active, setActive] = useState(0);
  const id = useId();
  useEffect(() => setActive(0), [items]);
  useEffect(() => {
    document.getElementById(`${id}-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [active, id]);
  useImperativeHandle(ref, () => ({
    onKeyDown(event) {
      if (items.length === 0) return false;
      if (event.key === "ArrowDown") setActive((a) => (a + 1) % items.length);
      else if (event.key === "ArrowUp") setActive((a) => (a + items.length - 1) % items.length);
      else if (event.key === "Enter" || event.key === "Tab") pick(items[active]);
      else return false;
      return true;
    },
  }));
  return (
    // Reachable by Tab too (it scrolls), though the editor keeps the focus while one types.
    <div
      className="suggestions"
      role="listbox"
      tabIndex={0}
      aria-label={label}
      id={`${id}-list`}
      aria-activedescendant={items.length ? `${id}-${active}` : undefined}
    >
      {items.length === 0 ? <div className="suggestion-empty">{empty}</div> : null}
      {items.map((item, i) => (
        <div
          key={i}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === active}
          className="suggestion"
          onMouseEnter={() => setActive(i)}
          onMouseDown={(e) => {
            e.preventDefault();
            pick(item);
          }}
        >
          {render(item)}
        </div>
      ))}
    </div>
  );
}

export const SuggestionList = forwardRef(SuggestionListInner) as <T>(
  p: SuggestionListProps<T> & { ref?: React.Ref<SuggestionListHandle> },
) => ReactNode;
