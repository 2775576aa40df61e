/**
 * A space's settings, for those who administer it: a left list of sections (General, Access,
 * Templates, Webhooks, Export), each its own small screen. Loaded lazily, when first opened.
 */
import { Suspense } from "react";
import { Link } from "wouter";
import type { Space } from "../../api/types";
import { Loading } from "../../app/Loading";
import { useTitle } from "../../lib/title";
import { EmptyState } from "../../ui/EmptyState";
import { AccessSection } from "./AccessSection";
import { GeneralSection } from "./GeneralSection";
import { useGrants } from "./queries";
import { TemplateEditorScreen } from "./TemplateEditorScreen";
import { TemplatesSection } from "./TemplatesSection";
import { WebhooksSection } from "./WebhooksSection";
import { SpaceExportSection } from "../export-import";
import "./settings.css";

const SECTIONS = [
  { id: "general", label: "General" },
  { id: "access", label: "Access" },
  { id: "templates", label: "Templates" },
  { id: "webhooks", label: "Webhooks" },
  { id: "export", label: "Export" },
] as const;
type SectionId = (typeof SECTIONS)[number]["id"];

/** `templateId`: a template's content, open in the editor (full width, without the sections). */
export default function SpaceSettingsScreen({ space, section, templateId }: { space: Space; section?: string; templateId?: string }) {
  // The space says whether the person administers it: only then are its grants asked for.
  const grants = useGrants(space.key, space.canAdmin);
  const current = (SECTIONS.find((s) => s.id === section)?.id ?? "general") as SectionId;
  const label = SECTIONS.find((s) => s.id === current)!.label;
  useTitle(`${label} · Settings`, space.name);
  if (space.canAdmin && grants.isPending) return <Loading />;
  if (!space.canAdmin || !grants.data) {
    return (
      <main id="main" className="main-column">
        <EmptyState title="Only the space's administrators can change its settings">
          Ask someone who administers {space.name} to give you Admin on it, or to make the change for you.
        </EmptyState>
      </main>
    );
  }
  if (templateId) return <TemplateEditorScreen space={space} templateId={templateId} />;
  return (
    <main id="main" className="main-column full-width settings">
      <h1 className="settings-title">Settings of {space.name}</h1>
      <div className="settings-layout">
        <nav className="settings-nav" aria-label="Settings sections">
          {SECTIONS.map((s) => (
            <Link
              key={s.id}
              href={`/s/${space.key}/settings/${s.id}`}
              className="settings-nav-link"
              aria-current={s.id === current ? "page" : undefined}
            >
              {s.label}
            </Link>
          ))}
        </nav>
        <div className="settings-body">
          {current === "general" ? <GeneralSection space={space} /> : null}
          {current === "access" ? <AccessSection space={space} grants={grants.data} /> : null}
          {current === "templates" ? <TemplatesSection space={space} /> : null}
          {current === "webhooks" ? <WebhooksSection space={space} /> : null}
          {current === "export" ? (
            <Suspense fallback={<Loading />}>
              <SpaceExportSection space={space} />
            </Suspense>
          ) : null}
        </div>
      </div>
    </main>
  );
}
