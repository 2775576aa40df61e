/**
 * Home › Import: a .zip (a Cairn wiki pack, a zip of Markdown files, or a Confluence HTML export)
 * becomes a new space. Choosing the file proposes the space's own name and key (a pack's, or the
 * folder wrapping the zip, else the file's name: zip-peek.ts), the key checked free with the
 * server (a taken one would be refused only after the upload). The file uploads with its
 * progress, then the server's progress is shown, then a short summary: counts, with the notes
 * (what was changed to fit or left out, with reasons) folded away until asked for, and a button to
 * open the new space. Errors are told next to the field they concern.
 */
import { useRef, useState } from "react";
import { useLocation } from "wouter";
import { api, ApiError } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import { keyFromName } from "../../lib/slug";
import { Button } from "../../ui/Button";
import { Dialog, DialogActions } from "../../ui/Dialog";
import { FormError, TextField } from "../../ui/Field";
import { toast } from "../../ui/toast";
import { phaseText } from "./follow";
import { importSpace, keyFromFilename, nameFromFilename, type ImportAnswer, type ImportStage } from "./import-upload";
import { peekZip } from "./zip-peek";
import "./export-import.css";
import { IMPORT_MAX_BYTES, SPACE_KEY_MAX, SPACE_NAME_MAX, megabytes } from "../../../common/limits";

export { IMPORT_MAX_BYTES };

export default function ImportSpaceDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const [file, setFile] = useState<File | null>(null);
  const [key, setKey] = useState("");
  const [name, setName] = useState("");
  const [stage, setStage] = useState<ImportStage | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [keyNote, setKeyNote] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  // What the person typed is theirs: a proposal arriving later never overwrites it.
  const typed = useRef({ key: false, name: false });
  const chosen = useRef<File | null>(null);
  const [, navigate] = useLocation();
  const busy = stage !== null;

  const reset = () => {
    setFile(null);
    setKey("");
    setName("");
    setStage(null);
    setError(null);
    setAnswer(null);
    setKeyNote(null);
    typed.current = { key: false, name: false };
    chosen.current = null;
  };
  const close = (next: boolean) => {
    if (next) return onOpenChange(true);
    // While the file uploads or the server writes the space, Escape, the ✕ and a click outside do
    // nothing: a long upload is not lost by a slip. "Cancel upload" stops it on purpose.
    if (stage) return;
    onOpenChange(false);
    reset();
  };
  const cancelUpload = () => abort.current?.abort();
  const choose = (next: File | null) => {
    setFile(next);
    setError(null);
    setKeyNote(null);
    chosen.current = next;
    if (!next) return;
    // The file's name first (at once), then what the zip says of itself, then a key checked free.
    const fromName = keyFromFilename(next.name, keyFromName);
    if (!typed.current.key) setKey(fromName);
    if (!typed.current.name) setName(nameFromFilename(next.name));
    void (async () => {
      const peek = await peekZip(next);
      if (chosen.current !== next) return;
      if (peek.name && !typed.current.name) setName(peek.name);
      const wanted = (peek.key ?? (peek.name ? keyFromName(peek.name) : "")) || fromName;
      const free = wanted ? await api.GET("/api/spaces/free-key", { params: { query: { key: wanted } } }).catch(() => null) : null;
      if (chosen.current !== next || typed.current.key) return;
      if (!free?.data) return setKey(wanted);
      setKey(free.data.key);
      setKeyNote(free.data.taken ? `${wanted.toUpperCase()} is used by another space: ${free.data.key} is free.` : null);
    })();
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!file) return setError(clientError("file", "Choose the .zip file to import."));
    if (file.size > IMPORT_MAX_BYTES) return setError(clientError("file", tooLarge(file.size)));
    if (!key.trim()) return setError(clientError("key", "The new space needs a key: 2 to 10 letters or digits, starting with a letter."));
    const controller = new AbortController();
    abort.current = controller;
    setStage({ stage: "upload", fraction: 0 });
    try {
      const result = await importSpace({ file, key: key.trim(), name, onStage: setStage }, controller.signal);
      await queryClient.invalidateQueries({ queryKey: keys.spaces });
      setAnswer(result);
      toast.success(`“${result.space.name}” imported`);
    } catch (err) {
      const problem = err instanceof ApiError ? err : new ApiError(0, "network", "", "Something went wrong. Try again.", undefined, {});
      setError(problem); // a cancelled upload says so too: nothing was imported
    } finally {
      abort.current = null;
      setStage(null);
    }
  };

  if (answer) {
    return (
      <Dialog
        open={open}
        onOpenChange={close}
        title={`“${answer.space.name}” is imported`}
        description={
          `From ${FORMATS[answer.format] ?? "the file"}, as the private space ` +
          `${answer.space.key}: only you can see it until you share it in its settings.`
        }
      >
        <Summary answer={answer} />
        <DialogActions>
          <Button onClick={() => close(false)}>Close</Button>
          <Button
            variant="primary"
            autoFocus
            onClick={() => {
              close(false);
              navigate(`/s/${answer.space.key}`);
            }}
          >
            Open {answer.space.name}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  const fieldError = (field: string) => (error && fieldOf(error) === field ? messageOf(error) : null);
  const formError = error && !fieldOf(error) ? messageOf(error) : null;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Import a space"
      description="A .zip file becomes a new private space, owned by you. It can be:"
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <ul className="import-kinds">
          <li>a Cairn wiki pack (Export › Wiki pack in another Cairn's space settings)</li>
          <li>a zip of Markdown files and folders (from Obsidian, Notion, GitHub wikis…): folders become the page tree</li>
          <li>a Confluence space exported as HTML</li>
        </ul>
        <FileField file={file} onChoose={choose} error={fieldError("file")} disabled={busy} />
        <div className="import-row">
          <TextField
            label="Name"
            value={name}
            onChange={(e) => {
              typed.current.name = true;
              setName(e.target.value);
            }}
            placeholder={file ? "The name in the file" : "Engineering"}
            error={fieldError("name")}
            disabled={busy}
            maxLength={SPACE_NAME_MAX}
          />
          <TextField
            label="Key"
            required
            value={key}
            onChange={(e) => {
              typed.current.key = true;
              setKeyNote(null);
              setKey(e.target.value.toUpperCase());
            }}
            hint={keyNote ?? "In links: /s/KEY"}
            error={fieldError("key")}
            disabled={busy}
            spellCheck={false}
            maxLength={SPACE_KEY_MAX}
          />
        </div>
        {stage ? <StageView stage={stage} /> : null}
        <FormError error={formError} />
        <DialogActions>
          {stage?.stage === "server" ? null : (
            <Button onClick={() => (stage ? cancelUpload() : close(false))}>{stage ? "Cancel upload" : "Cancel"}</Button>
          )}
          <Button type="submit" variant="primary" busy={busy}>
            Import
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

const FORMATS: Record<string, string> = {
  "cairn-pack": "a Cairn wiki pack",
  markdown: "a zip of Markdown files",
  confluence: "a Confluence HTML export",
};

function FileField({
  file,
  onChoose,
  error,
  disabled,
}: {
  file: File | null;
  onChoose(file: File | null): void;
  error: string | null;
  disabled: boolean;
}) {
  const note = "import-file-note";
  return (
    <div className="import-file">
      <label className="import-file-label" htmlFor="import-file">
        File (.zip, at most {megabytes(IMPORT_MAX_BYTES)})
      </label>
      <input
        id="import-file"
        type="file"
        accept=".zip,application/zip"
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || file ? note : undefined}
        onChange={(e) => onChoose(e.target.files?.[0] ?? null)}
      />
      {error ? (
        <p id={note} className="field-error" role="alert">
          {error}
        </p>
      ) : file ? (
        <p id={note} className="field-hint">
          {sizeText(file.size)}, ready to import
        </p>
      ) : null}
    </div>
  );
}

function StageView({ stage }: { stage: ImportStage }) {
  const percent = stage.stage === "upload" ? Math.round(stage.fraction * 100) : stage.percent;
  // The server converts one import at a time: a turn waited for is said as such, not as a stalled bar.
  const text =
    stage.stage === "upload"
      ? `Uploading the file: ${percent}%`
      : stage.phase === "waiting"
        ? `${phaseText(stage.phase)} The server imports one space at a time; this one starts when it is its turn.`
        : `Importing: ${phaseText(stage.phase)} (${percent}%). This can take a minute for a large space.`;
  return (
    <div className="export-progress" role="status" aria-live="polite">
      <span>{text}</span>
      <progress max={100} value={percent} aria-label={stage.stage === "upload" ? "Uploading the file" : "Importing"} />
    </div>
  );
}

const COUNT_LABELS: Array<[keyof ImportAnswer["counts"], string, string]> = [
  ["pages", "page", "pages"],
  ["versions", "version", "versions"],
  ["comments", "comment", "comments"],
  ["attachments", "attachment", "attachments"],
  ["labels", "label", "labels"],
  ["templates", "template", "templates"],
];

function Summary({ answer }: { answer: ImportAnswer }) {
  const notes = answer.mapped.length + answer.skipped.length;
  const counted = COUNT_LABELS.filter(([id]) => id === "pages" || answer.counts[id] > 0);
  return (
    <div className="import-summary">
      <ul className="import-counts" aria-label="What came in">
        {counted.map(([id, one, many]) => (
          <li key={id}>
            <span className="import-count">{answer.counts[id].toLocaleString()}</span>
            <span className="import-count-label">{answer.counts[id] === 1 ? one : many}</span>
          </li>
        ))}
      </ul>
      {notes ? (
        <details className="import-notes">
          <summary>{notesSummary(answer)}</summary>
          {answer.mapped.length ? (
            <>
              <h3>Changed to fit Cairn</h3>
              <ul>
                {answer.mapped.map((m, i) => (
                  <li key={i}>
                    {m.what} ({m.count.toLocaleString()}): {m.reason}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {answer.skipped.length ? (
            <>
              <h3>Left out or kept as text</h3>
              <ul>
                {answer.skipped.map((s, i) => (
                  <li key={i}>
                    <code>{s.path}</code>: {s.reason}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </details>
      ) : (
        <p className="muted">Everything in the file came in as it was.</p>
      )}
    </div>
  );
}

/** The folded details' one line: "Details: 2 changed to fit Cairn, 12 left out or kept as text". */
function notesSummary(answer: ImportAnswer): string {
  const parts: string[] = [];
  if (answer.mapped.length) parts.push(`${answer.mapped.length} changed to fit Cairn`);
  if (answer.skipped.length) parts.push(`${answer.skipped.length} left out or kept as text`);
  return `Details: ${parts.join(", ")}`;
}

function clientError(field: string, detail: string) {
  return new ApiError(400, "validation_failed", detail, detail, field, {});
}

/** Which field an error belongs next to (the server names most; a few are known by their code). */
function fieldOf(error: ApiError): string | undefined {
  if (error.code === "key_taken") return "key";
  if (error.code === "payload_too_large" || error.code === "import_refused" || error.code === "unsupported_media_type") return "file";
  if (error.field === "progress") return undefined;
  return error.field;
}

/** The error in words for the person importing. */
function messageOf(error: ApiError): string {
  switch (error.code) {
    case "key_taken":
      return "Another space already has this key. Choose another one.";
    case "payload_too_large":
      return `This file is larger than ${megabytes(IMPORT_MAX_BYTES)}, the most Cairn imports at once.`;
    case "import_refused":
      return `This file cannot be imported: ${error.detail ?? error.title}`;
    case "permission_required":
      return "You do not have the right to create spaces, which importing needs. Ask an administrator.";
    default:
      return error.message;
  }
}

function sizeText(bytes: number) {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function tooLarge(bytes: number) {
  return `This file is ${sizeText(bytes)}; Cairn imports files of at most ${megabytes(IMPORT_MAX_BYTES)}.`;
}
