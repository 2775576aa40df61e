/**
 * People (/people/<section>), for those with the right to invite or to manage groups: the list
 * of people, invites (new and pending) and groups. Loaded lazily, when first opened.
 */
import { useMe } from "../../app/session";
import { useTitle } from "../../lib/title";
import { EmptyState } from "../../ui/EmptyState";
import { seesPeople } from "./rights";
import { SectionsFrame } from "../account/SectionsFrame";
import { GroupsSection } from "./GroupsSection";
import { InvitesSection } from "./InvitesSection";
import { PeopleList } from "./PeopleList";


export default function PeopleScreen({ section }: { section?: string }) {
  const me = useMe();
  const rights = me.data?.permissions ?? [];
  const sections = [
    { id: "people", label: "People" },
    ...(rights.includes("users.invite") ? [{ id: "invites", label: "Invites" }] : []),
    { id: "groups", label: "Groups" },
  ];
  const current = sections.find((s) => s.id === section) ?? sections[0]!;
  useTitle(current.label, "People");
  if (!me.data) return null;
  if (!seesPeople(rights)) {
    return (
      <main id="main" className="main-column">
        <EmptyState title="Only administrators manage people">Ask an administrator to invite someone or to change a group for you.</EmptyState>
      </main>
    );
  }
  return (
    <SectionsFrame title="People" base="/people" sections={sections} current={current.id}>
      {current.id === "people" ? <PeopleList canInvite={rights.includes("users.invite")} /> : null}
      {current.id === "invites" ? <InvitesSection /> : null}
      {current.id === "groups" ? <GroupsSection canManage={rights.includes("groups.manage")} /> : null}
    </SectionsFrame>
  );
}
