/**
 * A comment's text box with "@" mentions: typing @ and a few letters offers matching people;
 * ↑/↓ and Enter (or a click) write the mention as @[Name](userId), the form the API reads.
 */
import { useState, type TextareaHTMLAttributes } from "react";
import { useUsers } from "./queries";

const MENTION_AT_CARET = /(^|\s)@([^\s@[\]()]{0,30})$/;

export function MentionInput({ value, onChange, label, onSubmit, ...rest }: { value: string; onChange(v: string): void; label: string; onSubmit(): void } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange" | "onSubmit">) {
  const users = useUsers();
  const [query, setQuery] = useState<{ text: string; at: number } | null>(null);
  const [active, setActive] = useState(0);
  const matches = query ? (users.data ?? []).filter((u) => u.displayName.toLowerCase().includes(query.text.toLowerCase())).slice(0, 6) : [];
  const listId = `${rest.id ?? "mention"}-people`;

  const track = (el: HTMLTextAreaElement) => {
    const before = el.value.slice(0, el.selectionStart);
    const m = MENTION_AT_CARET.exec(before);
    setQuery(m ? { text: m[2]!, at: before.length - m[2]!.length - 1 } : null);
    setActive(0);
  };
  const pick = (u: { id: string; displayName: string }) => {
    if (!query) return;
    const end = query.at + 1 + query.text.length;
    onChange(`${value.slice(0, query.at)}@[${u.displayName}](${u.id}) ${value.slice(end)}`);
    setQuery(null);
  };
  return (
    <div className="mention-input">
      <textarea
        {...rest}
        aria-label={label}
        value={value}
        role="combobox"
        aria-expanded={matches.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={matches.length ? `${listId}-${active}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          track(e.target);
        }}
        onKeyDown={(e) => {
          if (matches.length && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
            e.preventDefault();
            setActive((a) => (a + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
          } else if (matches.length && (e.key === "Enter" || e.key === "Tab")) {
            e.preventDefault();
            pick(matches[active]!);
          } else if (matches.length && e.key === "Escape") {
            e.stopPropagation();
            setQuery(null);
          } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            onSubmit();
          }
        }}
      />
      <ul id={listId} role="listbox" aria-label="People to mention" className="mention-list" hidden={!matches.length}>
        {matches.map((u, i) => (
          <li key={u.id} id={`${listId}-${i}`} role="option" aria-selected={i === active} onMouseDown={(e) => e.preventDefault()} onClick={() => pick(u)}>
            {u.displayName}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A body as text, its mentions drawn as names. */
export function CommentBody({ body }: { body: string }) {
  const parts = body.split(/(@\[[^\]]+\]\([^)]+\))/g);
  return (
    <p className="comment-body">
      {parts.map((p, i) => {
        const m = /^@\[([^\]]+)\]\(([^)]+)\)$/.exec(p);
        return m ? (
          <span key={i} className="mention">
            @{m[1]}
          </span>
        ) : (
          p
        );
      })}
    </p>
  );
}
