/**
 * The admin area's Settings section (right settings.manage): the instance settings in cards
 * (general, registration, limits, e-mail, single sign-on, images), each saved on its own with
 * only what changed. Settings that need the Security right are read-only without it. Loaded
 * when first opened.
 */
import { Loading } from "../../../app/Loading";
import { useMe } from "../../../app/session";
import { CARDS } from "./fields";
import { useSettings } from "./queries";
import { SettingsCard } from "./SettingsCard";
import "./settings.css";

export default function SettingsSection() {
  const me = useMe();
  const settings = useSettings();
  if (!me.data) return null;
  if (settings.isPending) return <Loading label="Loading settings…" />;
  if (settings.isError)
    return (
      <p className="form-error" role="alert">
        The settings could not be loaded: {settings.error.message}
      </p>
    );
  const rights = me.data.permissions;
  return (
    <>
      {CARDS.map((card) => (
        <SettingsCard key={card.id} card={card} settings={settings.data as unknown as Record<string, unknown>} rights={rights} />
      ))}
    </>
  );
}
