/**
 * A text box and its button, for a new comment, a reply or an edit; errors show beneath it. The
 * box holds the comment as it reads (mentions as names); it is sent in the stored form.
 */
import { useState } from "react";
import { Button } from "../../ui/Button";
import { FormError } from "../../ui/Field";
import { useTask } from "../../lib/mutation";
import { fromStored, toStored, type Mentioned } from "./mention-text";
import { MentionInput } from "./MentionInput";

export interface ComposerProps {
  id: string;
  label: string;
  submitLabel: string;
  initial?: string;
  quote?: string;
  autoFocus?: boolean;
  onSubmit(body: string): Promise<unknown>;
  onCancel?(): void;
}

export function CommentComposer({ id, label, submitLabel, initial = "", quote, autoFocus, onSubmit, onCancel }: ComposerProps) {
  const [start] = useState(() => fromStored(initial));
  const [body, setBody] = useState(start.text);
  const [mentioned, setMentioned] = useState<Mentioned[]>(start.mentioned);
  // The write itself is the caller's (a new comment, a reply, an edit), run through the one pattern.
  const posting = useTask({
    done: () => {
      setBody("");
      setMentioned([]);
    },
  });
  const { busy, error } = posting;
  const submit = () => {
    if (!body.trim()) return posting.setError("Write something first.");
    void posting.run({ what: "post", work: () => onSubmit(toStored(body.trim(), mentioned)) });
  };
  return (
    <form
      className="comment-composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {quote ? <blockquote className="comment-quote">{quote}</blockquote> : null}
      <MentionInput
        id={id}
        label={label}
        placeholder={`${label}… (@ to mention someone)`}
        value={body}
        onChange={setBody}
        mentioned={mentioned}
        onMention={(m) => setMentioned((all) => [...all, m])}
        onSubmit={() => void submit()}
        rows={3}
        autoFocus={autoFocus}
      />
      <FormError error={error} />
      <div className="comment-composer-actions">
        {onCancel ? (
          <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" size="sm" variant="primary" busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
