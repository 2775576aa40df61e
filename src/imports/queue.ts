/**
 * The server's one line of imports. Converting and checking an archive holds every page of it in
 * memory (bounded per page, not per server), so imports convert one at a time: two at once
 * doubled the peak. Uploads still stream to disk side by side; each then waits here, its progress
 * reading "waiting", and at most MAX_WAITING wait (more is a 503 before the upload is read).
 */
import { AppError } from "../platform/errors";
import { Turns } from "../platform/turns";

export const MAX_WAITING_IMPORTS = 10;

export const importTurns = new Turns(1, MAX_WAITING_IMPORTS);

export const importsBusy = () =>
  new AppError("service_unavailable", {
    detail: `${MAX_WAITING_IMPORTS} imports are already waiting for their turn; try again in a few minutes.`,
    headers: { "retry-after": "60" },
  });
