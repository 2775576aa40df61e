/** On the home screen, until setup is completed: the owner's way back to the wizard (dismissable). */
import { useState } from "react";
import { Link } from "wouter";
import { useMe } from "../../app/session";
import { IconButton } from "../../ui/Button";
import { X } from "../../ui/icons";
import { useSetup } from "./queries";
import "./banner.css";

const DISMISSED = "cairn.setupBannerDismissed";

export function SetupBanner() {
  const me = useMe();
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED) === "1");
  const setup = useSetup(me.data?.role === 2 && !dismissed);
  if (dismissed || !setup.data || setup.data.completed) return null;
  const decided = setup.data.steps.filter((s) => s.state !== "pending").length;
  const dismiss = () => {
    localStorage.setItem(DISMISSED, "1");
    setDismissed(true);
  };
  return (
    <aside className="setup-banner" aria-labelledby="setup-banner-title">
      <div>
        <h2 id="setup-banner-title">Finish setting up Cairn</h2>
        <p>
          {decided} of {setup.data.steps.length} steps done. Name the wiki, choose who can join and create your first space.
        </p>
      </div>
      <Link href="/welcome" className="btn btn-primary btn-md">
        Continue setup
      </Link>
      <IconButton label="Hide this reminder" onClick={dismiss}>
        <X size={16} aria-hidden="true" />
      </IconButton>
    </aside>
  );
}
