/** What shows while the first answer is on its way (kept quiet: most loads are instant). */
export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="spinner-page" role="status">
      <span className="btn-spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
