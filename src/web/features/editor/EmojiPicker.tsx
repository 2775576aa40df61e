/** A page's emoji: a small grid of common ones in a popover (no emoji database to download). */
import * as Popover from "@radix-ui/react-popover";
import { EmojiGrid } from "../../ui/EmojiGrid";
import { Smile } from "../../ui/icons";

/** Radix places the popover with floating-ui; these keep it off the sticky top bar and the edges. */
const EMOJI_EDGES = { top: 52 + 8, right: 8, bottom: 8, left: 8 };

/**
 * With an emoji, the trigger is the emoji itself where the title shows it; without one, a small
 * "Add emoji" button among the actions, so the title does not move when editing starts.
 */
export function EmojiPicker({ value, onChange }: { value: string | null; onChange(emoji: string | null): void }) {
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        {value ? (
          <button type="button" className="emoji-trigger" aria-label={`Page emoji ${value}: change`}>
            {value}
          </button>
        ) : (
          <button type="button" className="btn btn-ghost btn-sm emoji-add" aria-label="Add an emoji">
            <Smile size={15} aria-hidden="true" /> Emoji
          </button>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="emoji-popover" sideOffset={6} align="start" collisionPadding={EMOJI_EDGES} aria-label="Choose an emoji">
          <EmojiGrid onPick={onChange} wrap={(button) => <Popover.Close asChild>{button}</Popover.Close>} />
          {value ? (
            <Popover.Close asChild>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => onChange(null)}>
                Remove emoji
              </button>
            </Popover.Close>
          ) : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
