/**
 * A full-width screen with a left list of sections: the account, administration and audit
 * screens share it. Below 760 px the list becomes a row of links above the section.
 */
import type { ReactNode } from "react";
import { Link } from "wouter";
import "./panes.css";

export function SectionsFrame({
  title,
  base,
  sections,
  current,
  children,
}: {
  title: string;
  base: string;
  sections: ReadonlyArray<{ id: string; label: string }>;
  current: string;
  children: ReactNode;
}) {
  return (
    <main id="main" className="main-column full-width panes">
      <h1 className="panes-title">{title}</h1>
      <div className="panes-layout">
        <nav className="panes-nav" aria-label={`${title} sections`}>
          {sections.map((s) => (
            <Link key={s.id} href={`${base}/${s.id}`} className="panes-nav-link" aria-current={s.id === current ? "page" : undefined}>
              {s.label}
            </Link>
          ))}
        </nav>
        <div className="panes-body">{children}</div>
      </div>
    </main>
  );
}

/** One card of a section: a heading, a sentence saying what it is for, then its content. */
export function Card({
  id,
  title,
  intro,
  action,
  children,
  danger,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  action?: ReactNode;
  children?: ReactNode;
  danger?: boolean;
}) {
  return (
    <section className={`pane-card${danger ? " pane-danger" : ""}`} aria-labelledby={id}>
      <div className="pane-card-head">
        <h2 id={id}>{title}</h2>
        {action}
      </div>
      {intro ? <p className="muted pane-intro">{intro}</p> : null}
      {children}
    </section>
  );
}
