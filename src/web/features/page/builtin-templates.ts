/**
 * Templates every wiki has from the start (docs/decisions.md, "New pages start in one step"):
 * offered on a new, empty page ("Start from a template") and beside the space's own in the chooser.
 * They are part of the app, not rows of the templates table, so a space "has templates" only when
 * someone made some; a wiki that wants different ones makes its own (Space settings › Templates). A
 * module of its own: loaded with the editor, or when the chooser opens.
 */
import type { DocJson } from "../../api/client";

type Block = Record<string, unknown>;
const text = (t: string) => ({ type: "text", text: t });
const p = (t = "") => (t ? { type: "paragraph", content: [text(t)] } : { type: "paragraph" });
const h = (t: string, level = 2) => ({ type: "heading", attrs: { level }, content: [text(t)] });
const bullets = (...items: string[]) => ({ type: "bulletList", content: items.map((i) => ({ type: "listItem", content: [p(i)] })) });
const steps = (...items: string[]) => ({
  type: "orderedList",
  attrs: { start: 1, type: null },
  content: items.map((i) => ({ type: "listItem", content: [p(i)] })),
});
const tasks = (...items: string[]) => ({
  type: "taskList",
  content: items.map((i) => ({ type: "taskItem", attrs: { checked: false }, content: [p(i)] })),
});
const panel = (kind: "info" | "note" | "success" | "warning" | "danger", t: string) => ({
  type: "panel",
  attrs: { kind },
  content: [p(t)],
});
const doc = (...content: Block[]): DocJson => ({ type: "doc", content }) as unknown as DocJson;

export interface BuiltinTemplate {
  id: string;
  name: string;
  description: string;
  doc: DocJson;
}

export const BUILTIN_TEMPLATES: BuiltinTemplate[] = [
  {
    id: "builtin:meeting-notes",
    name: "Meeting notes",
    description: "Who came, what was said, what was decided, who does what next.",
    doc: doc(
      p("Date and time · Where or which call"),
      h("Attendees"),
      bullets("Name"),
      h("Agenda"),
      steps("Topic"),
      h("Notes"),
      p("What was said, topic by topic."),
      h("Decisions"),
      bullets("What was decided, and why"),
      h("Action items"),
      tasks("Who does what, by when"),
    ),
  },
  {
    id: "builtin:how-to",
    name: "How-to",
    description: "Steps to get one thing done, with what is needed first and how to check it worked.",
    doc: doc(
      p("In one sentence: what this guide helps someone do."),
      h("Before you start"),
      bullets("Access, tools or knowledge needed"),
      h("Steps"),
      steps("First step", "Next step", "Last step"),
      h("Check that it worked"),
      p("What should be true at the end."),
      h("If something goes wrong"),
      bullets("Symptom: what to do"),
      h("Related pages"),
      bullets("Link to related pages"),
    ),
  },
  {
    id: "builtin:decision-record",
    name: "Decision record",
    description: "One decision: its context, the options weighed, the choice and what follows from it.",
    doc: doc(
      panel("info", "Status: proposed · Decided by: names · Date: when"),
      h("Context"),
      p("The situation and the forces at play: why a decision is needed now."),
      h("Options considered"),
      bullets("Option A: its pros and cons", "Option B: its pros and cons"),
      h("Decision"),
      p("What we chose, in one or two sentences."),
      h("Consequences"),
      bullets("What becomes easier", "What becomes harder, and what we will watch"),
    ),
  },
  {
    id: "builtin:runbook",
    name: "Runbook",
    description: "What to do when a service needs attention: checks, fixes, escalation.",
    doc: doc(
      p("Service: name · Owner: team · Dashboards and logs: links"),
      panel("warning", "When to use this runbook: the alert or symptom that leads here."),
      h("Quick checks"),
      tasks("Is the service up?", "Any recent deploy or change?", "Errors in the logs?"),
      h("Diagnosis"),
      steps("Look at…", "Compare with…"),
      h("Fixes"),
      p("For each known cause, the commands or steps that fix it."),
      { type: "codeBlock", attrs: { language: "bash" }, content: [text("# command to run")] },
      h("Escalation"),
      p("Who to call when this does not help, and how to reach them."),
    ),
  },
];
