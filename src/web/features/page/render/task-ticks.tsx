/**
 * Task boxes that tick from the reading view (docs/decisions.md, "Tasks tick from the reading
 * view"), for people who may edit the page: DocumentView provides the page's tasks in document
 * order and what a tick does; a task box with no provider (a reader without Edit, history, the
 * trash) stays a drawing.
 */
import { createContext, useContext, type ChangeEvent } from "react";
import { taskName } from "../../../../content/task-name";

export interface TaskTicks {
  /** Each taskItem node of the document drawn → its place among the tasks, from 0. */
  indexOf: WeakMap<object, number>;
  tick(index: number, checked: boolean): void;
}

export const TaskTicksContext = createContext<TaskTicks | null>(null);

/** The taskItem nodes of a document, in document order. */
export function taskIndex(doc: unknown): WeakMap<object, number> {
  const map = new WeakMap<object, number>();
  let n = 0;
  const walk = (node: { type?: string; content?: unknown[] }) => {
    if (node.type === "taskItem") map.set(node, n++);
    for (const child of node.content ?? []) walk(child as typeof node);
  };
  walk(doc as { content?: unknown[] });
  return map;
}

export function TaskBox({ node, checked }: { node: object; checked: boolean }) {
  const ticks = useContext(TaskTicksContext);
  const index = ticks?.indexOf.get(node);
  const name = taskName(node, checked);
  if (!ticks || index === undefined) return <input type="checkbox" checked={checked} disabled aria-label={name} readOnly />;
  return (
    <input
      type="checkbox"
      checked={checked}
      aria-label={name}
      onChange={(e: ChangeEvent<HTMLInputElement>) => ticks.tick(index, e.target.checked)}
    />
  );
}
