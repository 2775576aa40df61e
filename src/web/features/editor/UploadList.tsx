import type { UploadState } from "./useUploads";

/** Files on their way to the page, each with its progress, or why it failed. */
export function UploadList({ uploads, onDismiss }: { uploads: UploadState[]; onDismiss(id: number): void }) {
  if (uploads.length === 0) return null;
  return (
    <ul className="upload-list" aria-label="Uploads">
      {uploads.map((u) => (
        <li key={u.id} className={u.error ? "upload-failed" : undefined}>
          <span className="upload-name">{u.name}</span>
          {u.error ? (
            <>
              <span role="alert">{u.error}</span>
              <button type="button" className="link-button" onClick={() => onDismiss(u.id)}>
                Dismiss
              </button>
            </>
          ) : (
            <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
          )}
        </li>
      ))}
    </ul>
  );
}
