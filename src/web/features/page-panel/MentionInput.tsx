/**
 * A comment's text box with "@" mentions: typing @ and a few letters offers matching people;
 * ↑/↓ and Enter (or a click) write the person's name ("@Ada Lovelace") and report whom it
 * names, so the box reads as the comment will (mention-text.ts makes the stored form on
 * sending). A layer behind the text tints each mention as the page shows it.
 */
import { useLayoutEffect, useRef, useState, type TextareaHTMLAttributes } from "react";
import { mentionPattern, type Mentioned } from "./mention-text";
import { useUsers } from "./queries";

const MENTION_AT_CARET = /(^|\s)@([^\s@[\]()]{0,30})$/;

type Props = {
  value: string;
  onChange(v: string): void;
  mentioned: Mentioned[];
  onMention(m: Mentioned): void;
  label: string;
  onSubmit(): void;
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange" | "onSubmit">;

export function MentionInput({ value, onChange, mentioned, onMention, label, onSubmit, ...rest }: Props) {
  const users = useUsers();
  const box = useRef<HTMLTextAreaElement>(null);
  const caretAfter = useRef<number | null>(null);
  const [query, setQuery] = useState<{ text: string; at: number } | null>(null);
  const [active, setActive] = useState(0);
  const matches = query ? (users.data ?? []).filter((u) => u.displayName.toLowerCase().includes(query.text.toLowerCase())).slice(0, 6) : [];
  const listId = `${rest.id ?? "mention"}-people`;

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    // The box grows with its text, so it never scrolls away from the layer behind it.
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
    // After a pick the caret goes after the name written, not to the end of the text.
    if (caretAfter.current === null) return;
    el.setSelectionRange(caretAfter.current, caretAfter.current);
    caretAfter.current = null;
  }, [value]);

  const track = (el: HTMLTextAreaElement) => {
    const before = el.value.slice(0, el.selectionStart);
    const m = MENTION_AT_CARET.exec(before);
    setQuery(m ? { text: m[2]!, at: before.length - m[2]!.length - 1 } : null);
    setActive(0);
  };
  const pick = (u: { id: string; displayName: string }) => {
    if (!query) return;
    const end = query.at + 1 + query.text.length;
    const written = `@${u.displayName} `;
    caretAfter.current = query.at + written.length;
    onMention({ id: u.id, name: u.displayName });
    onChange(`${value.slice(0, query.at)}${written}${value.slice(end).replace(/^ /, "")}`);
    setQuery(null);
  };
  return (
    <div className="mention-input">
      <div className="mention-backdrop" aria-hidden="true">
        {tinted(value, mentioned)}
      </div>
      <textarea
        {...rest}
        ref={box}
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
          <li
            key={u.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(u)}
          >
            {u.displayName}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The text with each picked person's "@Name" in a <mark>, for the layer behind the box. */
function tinted(text: string, mentioned: Mentioned[]): React.ReactNode[] {
  // A trailing newline needs a character after it, or the layer is one line short of the box.
  const all = `${text}\u200b`;
  const pattern = mentionPattern(
    mentioned.map((m) => m.name),
    "u",
  );
  if (!pattern) return [all];
  // split() keeps the pattern's one group: the odd parts are the names (their "@" consumed).
  const parts = all.split(pattern);
  return parts.map((p, i) => (i % 2 ? <mark key={i}>@{p}</mark> : p));
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
