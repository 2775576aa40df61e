/**
 * Your account (/settings/<section>): profile, password, sessions and API tokens. Loaded
 * lazily, when first opened from the account menu.
 */
import { useMe } from "../../app/session";
import { useTitle } from "../../lib/title";
import { AvatarCard } from "./AvatarCard";
import { PasswordSection, ProfileSection } from "./ProfileSection";
import { SectionsFrame } from "../../ui/SectionsFrame";
import { SessionsSection } from "./SessionsSection";
import { TokensSection } from "./TokensSection";

const SECTIONS = [
  { id: "profile", label: "Profile" },
  { id: "password", label: "Password" },
  { id: "sessions", label: "Sessions" },
  { id: "tokens", label: "API tokens" },
] as const;

export default function AccountScreen({ section }: { section?: string }) {
  const me = useMe();
  const current = SECTIONS.find((s) => s.id === section) ?? SECTIONS[0];
  useTitle(current.label, "Your account");
  if (!me.data) return null;
  return (
    <SectionsFrame title="Your account" base="/settings" sections={SECTIONS} current={current.id}>
      {current.id === "profile" ? <ProfileSection me={me.data} /> : null}
      {current.id === "profile" ? <AvatarCard me={me.data} /> : null}
      {current.id === "password" ? <PasswordSection /> : null}
      {current.id === "sessions" ? <SessionsSection /> : null}
      {current.id === "tokens" ? <TokensSection canUse={me.data.permissions.includes("tokens.use")} /> : null}
    </SectionsFrame>
  );
}
