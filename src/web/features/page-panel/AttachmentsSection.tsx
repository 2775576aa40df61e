/**
 * A page's files: name, type, size, who and when, with download; images shown small; upload by
 * drop or picker with a progress bar per file (api/upload.ts, through the editor's uploadFile); delete asks first.
 */
import { useRef, useState } from "react";
import { queryClient } from "../../api/query-client";
import type { Page } from "../../api/types";
import { useAction } from "../../lib/mutation";
import { fullDate, timeAgo } from "../../lib/time";
import { Button } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { FormError } from "../../ui/Field";
import { Download, Upload } from "../../ui/icons";
import { toast } from "../../ui/toast";
import { panelKeys, useAttachments, useDeleteAttachmentMutation, useUsers, type Attachment } from "./queries";
import { ATTACHMENT_MAX_BYTES, megabytes } from "../../../common/limits";

export const MAX_UPLOAD_BYTES = ATTACHMENT_MAX_BYTES;

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes / 1024 < 10 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

interface Upload {
  key: number;
  name: string;
  fraction: number;
  error?: string;
}

let nextKey = 0;

export function AttachmentsSection({ page }: { page: Page }) {
  const files = useAttachments(page.id);
  const users = useUsers();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const nameOf = (id: string | null) => users.data?.find((u) => u.id === id)?.displayName ?? "someone";

  const send = (list: FileList | File[]) => {
    for (const file of Array.from(list)) {
      const key = nextKey++;
      const patch = (p: Partial<Upload>) => setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...p } : u)));
      if (file.size > MAX_UPLOAD_BYTES) {
        setUploads((all) => [
          ...all,
          {
            key,
            name: file.name,
            fraction: 0,
            error: `${file.name} is ${formatSize(file.size)}; files can be at most ${megabytes(MAX_UPLOAD_BYTES)}.`,
          },
        ]);
        continue;
      }
      setUploads((all) => [...all, { key, name: file.name, fraction: 0 }]);
      // The editor's upload helper, by dynamic import: the editor's folder loads only on demand.
      import("../editor/upload")
        .then(({ uploadFile }) => uploadFile(page.id, file, (fraction) => patch({ fraction })))
        .then(async () => {
          await queryClient.invalidateQueries({ queryKey: panelKeys.attachments(page.id) });
          setUploads((all) => all.filter((u) => u.key !== key));
          toast.success(`${file.name} uploaded`);
        })
        .catch((err: Error) => patch({ error: `${file.name}: ${err.message}` }));
    }
  };

  return (
    <div className="attachments">
      {page.canEdit ? (
        <div
          className={`drop-zone${dragging ? " dragging" : ""}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            send(e.dataTransfer.files);
          }}
        >
          <p>Drop files here, or</p>
          <Button size="sm" variant="secondary" onClick={() => picker.current?.click()}>
            <Upload size={15} aria-hidden="true" /> Choose files
          </Button>
          <p className="muted small">Up to {megabytes(MAX_UPLOAD_BYTES)} each.</p>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label="Files to upload"
            onChange={(e) => e.target.files && (send(e.target.files), (e.target.value = ""))}
          />
        </div>
      ) : null}
      {uploads.length ? (
        <ul className="upload-list" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.key}>
              {u.error ? (
                <div className="upload-error" role="alert">
                  <span>{u.error}</span>
                  <Button size="sm" variant="ghost" onClick={() => setUploads((all) => all.filter((x) => x.key !== u.key))}>
                    Dismiss
                  </Button>
                </div>
              ) : (
                <>
                  <span className="upload-name">{u.name}</span>
                  <progress max={1} value={u.fraction} aria-label={`Uploading ${u.name}`} />
                  <span className="muted small">{Math.round(u.fraction * 100)}%</span>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {files.isPending ? <p className="muted">Loading files…</p> : null}
      {files.error ? <FormError error={files.error.message} /> : null}
      {files.data && files.data.length === 0 ? (
        <EmptyState title="No files yet">
          {page.canEdit
            ? "Drop a file above to attach it to this page: everyone who can read the page can download it."
            : "Files attached to this page will be listed here."}
        </EmptyState>
      ) : null}
      {files.data?.length ? (
        <ul className="file-list" aria-label="Files">
          {files.data.map((f) => (
            <FileRow key={f.id} file={f} page={page} uploader={nameOf(f.uploadedById)} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function FileRow({ file, page, uploader }: { file: Attachment; page: Page; uploader: string }) {
  const [confirming, setConfirming] = useState(false);
  const image = /^image\/(png|jpeg|gif|webp)$/.test(file.contentType);
  const removal = useAction(useDeleteAttachmentMutation(page.id), { success: `${file.filename} deleted` });
  const error = removal.error;
  const remove = () => removal.run(file);
  return (
    <li className="file-row">
      {image ? <img className="file-thumb" src={`/api/attachments/${file.id}/view`} alt="" loading="lazy" /> : null}
      <div className="file-info">
        <a className="file-name" href={`/api/attachments/${file.id}/download`} download={file.filename}>
          <Download size={14} aria-hidden="true" /> {file.filename}
        </a>
        <span className="muted small">
          {file.contentType} · {formatSize(file.size)} · {uploader} ·{" "}
          <time dateTime={file.createdAt} title={fullDate(file.createdAt)}>
            {timeAgo(file.createdAt)}
          </time>
        </span>
        {confirming ? (
          <div className="inline-confirm" role="group" aria-label="Confirm deletion">
            <span>Delete {file.filename}? Links to it in the page stop working.</span>
            <Button size="sm" variant="danger" onClick={() => void remove()}>
              Delete file
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </div>
        ) : page.canEdit ? (
          <Button
            size="sm"
            variant="ghost"
            className="file-delete"
            onClick={() => setConfirming(true)}
            aria-label={`Delete ${file.filename}`}
          >
            Delete
          </Button>
        ) : null}
        <FormError error={error} />
      </div>
    </li>
  );
}
