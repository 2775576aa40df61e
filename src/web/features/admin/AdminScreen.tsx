/**
 * The admin area (/admin/<section>): a full-width screen with a left list of the sections the
 * account's role may open (sections.ts), each loaded when first opened. A section the role may
 * not open is not listed; asking for it by address opens the first one that is.
 */
import { lazy, Suspense, useMemo, type ComponentType, type LazyExoticComponent } from "react";
import { Redirect } from "wouter";
import { Loading } from "../../app/Loading";
import { useMe } from "../../app/session";
import { useTitle } from "../../lib/title";
import { EmptyState } from "../../ui/EmptyState";
import { SectionsFrame } from "../../ui/SectionsFrame";
import { ADMIN_SECTIONS, visibleSections, type AdminSection } from "./sections";

// One lazy component per section for the life of the page, so switching back does not reload it.
const loaded = new Map<string, LazyExoticComponent<ComponentType>>();
function componentOf(section: AdminSection) {
  let c = loaded.get(section.id);
  if (!c) loaded.set(section.id, (c = lazy(section.load)));
  return c;
}

export default function AdminScreen({ section }: { section?: string }) {
  const me = useMe();
  const sections = useMemo(() => visibleSections(me.data?.permissions ?? []), [me.data?.permissions]);
  const current = sections.find((s) => s.id === section);
  useTitle(current?.label, "Administration");
  if (!me.data) return null;
  if (sections.length === 0) {
    return (
      <main id="main" className="main-column">
        <EmptyState title="Only administrators open the admin area">
          Your role holds none of its rights. Ask an administrator if something about this wiki needs changing.
        </EmptyState>
      </main>
    );
  }
  if (!current) return <Redirect to={`/admin/${sections[0]!.id}`} replace />;
  const Section = componentOf(current);
  return (
    <SectionsFrame title="Administration" base="/admin" sections={sections} current={current.id}>
      <Suspense fallback={<Loading label={`Loading ${current.label.toLowerCase()}…`} />}>
        <Section />
      </Suspense>
    </SectionsFrame>
  );
}

export { ADMIN_SECTIONS };
