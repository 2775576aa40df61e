/**
 * The edge of the collaboration WebSocket: a refused upgrade answers a plain HTTP problem
 * (401 bad or expired token, 403 may not edit or archived, 404 page gone), never a socket.
 */
import type { Server } from "bun";
import { problemResponse } from "../http/problem";
import { AppError, type ErrorCode } from "../platform/errors";
import type { Collab } from "./start";

const CODES: Record<number, ErrorCode> = { 401: "unauthenticated", 403: "forbidden", 404: "not_found", 429: "rate_limited" };

/** undefined once upgraded (Bun then owns the socket); otherwise the answer to send. */
export function upgradeCollab(collab: Collab, request: Request, server: Server<unknown>): Response | undefined {
  const result = collab.accept(request, server as Parameters<Collab["accept"]>[1]);
  if (result.upgraded) return undefined;
  if ("notWebSocket" in result)
    return problemResponse(
      new AppError("validation_failed", { detail: "This address takes a WebSocket (y-websocket), not a plain request." }),
    );
  const { status, reason } = result.refusal;
  return problemResponse(new AppError(CODES[status] ?? "forbidden", { detail: reason }));
}
