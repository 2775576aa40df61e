/**
 * Your picture: upload one (PNG, JPEG or WebP; the server crops it to a square and removes its
 * metadata), remove it, or choose the colour of the initials shown when there is none.
 */
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { Me } from "../../api/types";
import { Avatar, avatarColor, CHOSEN_COLORS, colorFor, initials } from "../../ui/Avatar";
import { Button } from "../../ui/Button";
import { FormError } from "../../ui/Field";
import { Card } from "../../ui/SectionsFrame";
import { IMAGE_ACCEPT, useImageSlot } from "./upload-image";
import "./avatar-card.css";
import { AVATAR_MAX_BYTES, MB } from "../../../common/limits";

const MAX_MB = AVATAR_MAX_BYTES / MB;

export function AvatarCard({ me }: { me: Me }) {
  const saved = (account: Partial<Me>) =>
    queryClient.setQueryData(keys.me, (old: Me | null | undefined) => (old ? { ...old, ...account } : old));
  const { input, busy, error, setError, confirming, setConfirming, upload, remove } = useImageSlot<Me>({
    path: "/api/media/avatars/me",
    maxMb: MAX_MB,
    words: { noun: "picture", saved: "Picture saved", removed: "Picture removed; your initials show instead" },
    onSaved: saved,
    remove: async () => {
      await data(api.DELETE("/api/media/avatars/me"));
      saved({ avatarUrl: null });
      void queryClient.invalidateQueries({ queryKey: keys.me }); // (as after a colour: no stale fetch answers last)
    },
  });
  const choose = async (variant: number) => {
    setError(null);
    const before = me.avatarVariant;
    // A fetch of the account already under way would answer the old colour over the chosen one.
    void queryClient.cancelQueries({ queryKey: keys.me });
    saved({ avatarVariant: variant });
    try {
      saved(await data(api.PUT("/api/media/avatars/me/variant", { body: { variant } })));
      // A fetch started between the cancel above and the save would still answer the old
      // colour: refetching now cancels it and reads what the server holds since.
      void queryClient.invalidateQueries({ queryKey: keys.me });
    } catch (err) {
      saved({ avatarVariant: before });
      setError((err as Error).message);
    }
  };

  return (
    <Card
      id="profile-picture"
      title="Picture"
      intro="Shown beside your name wherever people appear. Without a picture, your initials show on the colour you choose."
    >
      <div className="avatar-card">
        <Avatar
          name={me.displayName}
          label={`Your picture: ${me.displayName}`}
          color={avatarColor(me.id, me.avatarVariant)}
          src={me.avatarUrl}
          size={88}
        />
        <div className="avatar-card-actions">
          <input
            ref={input}
            type="file"
            accept={IMAGE_ACCEPT}
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => e.target.files?.[0] && void upload(e.target.files[0])}
          />
          <div className="avatar-card-buttons">
            <Button variant="primary" busy={busy === "upload"} onClick={() => input.current?.click()}>
              {busy === "upload" ? "Uploading…" : me.avatarUrl ? "Upload a new picture" : "Upload a picture"}
            </Button>
            {me.avatarUrl && !confirming ? (
              <Button variant="ghost" onClick={() => setConfirming(true)}>
                Remove picture
              </Button>
            ) : null}
          </div>
          <p className="muted avatar-card-hint">
            PNG, JPEG or WebP, up to {MAX_MB} MB. It is cropped to a square; its location and other details are removed.
          </p>
          {confirming ? (
            <div className="avatar-card-confirm" role="group" aria-label="Remove your picture">
              <p>Remove your picture? Your initials will show instead.</p>
              <Button variant="danger" size="sm" busy={busy === "remove"} onClick={() => void remove()}>
                Remove picture
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
                Keep it
              </Button>
            </div>
          ) : null}
          <FormError error={error} />
        </div>
      </div>
      <fieldset className="avatar-colours">
        <legend>Colour of your initials</legend>
        <p className="muted avatar-colours-hint" id="avatar-colours-hint">
          The first is picked for you from your account; choose any other to make it yours. It shows whenever there is no picture.
        </p>
        {[0, ...CHOSEN_COLORS.map((_, i) => i + 1)].map((variant) => {
          const colour = variant === 0 ? colorFor(me.id) : CHOSEN_COLORS[variant - 1]!;
          const name = variant === 0 ? "Automatic" : `Colour ${variant}`;
          return (
            <label key={variant} className="avatar-colour" title={name}>
              <input
                type="radio"
                name="avatar-variant"
                value={variant}
                checked={me.avatarVariant === variant}
                onChange={() => void choose(variant)}
              />
              <span className="avatar-colour-swatch" style={{ background: colour }} aria-hidden="true">
                {initials(me.displayName)}
              </span>
              <span className="visually-hidden">{name}</span>
            </label>
          );
        })}
      </fieldset>
    </Card>
  );
}
