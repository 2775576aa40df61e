/**
 * Following long work the server reports at GET /api/export-progress/{id}: polled every
 * `POLL_MS` until it is done. Plain calls (not React), so an export keeps being followed while
 * the person moves around the app, and a screen shows it again when they come back.
 */
import { api, ApiError, data } from "../../api/client";
import type { AnswerOf } from "../../api/types";

export type ProgressView = AnswerOf<"/api/export-progress/{id}", "get">;

export const POLL_MS = 600;

/** The latest progress, or null while the server has none under that id (not started yet, or not ours). */
export async function readProgress(id: string): Promise<ProgressView | null> {
  try {
    return await data(api.GET("/api/export-progress/{id}", { params: { path: { id } } }));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** The phases the exports and imports report, in words (an unknown one is shown as sent, tidied). */
const PHASES: Record<string, string> = {
  starting: "Starting",
  // Exports (pack: pages, files, finish; site: pages, files, index)
  pages: "Pages",
  files: "Files",
  finish: "Finishing",
  index: "Search index",
  // Imports: upload, waiting (for another import: one converts at a time), reading, checking, writing
  upload: "Receiving the file",
  waiting: "Waiting for another import to finish…",
  reading: "Reading the file",
  checking: "Checking the pages",
  writing: "Writing the space",
};
export const phaseText = (phase: string) => PHASES[phase] ?? phase.charAt(0).toUpperCase() + phase.slice(1).replace(/[-_]/g, " ");

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
