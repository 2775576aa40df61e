import { Type, type IntegerOptions } from "@sinclair/typebox";
import { t } from "elysia";
import { clientOf } from "./client";
import { SECURITY_HEADERS } from "../platform/security-headers";

/**
 * RFC 9457 problem document, as every error answers (docs/api.md, "Errors are problem
 * documents").
 */
export const Problem = t.Object(
  {
    status: t.Integer(),
    title: t.String(),
    code: t.Optional(t.String({ description: "Stable snake_case error code; see the catalogue in info.description" })),
    detail: t.Optional(t.String()),
    field: t.Optional(t.String({ description: "The request field at fault (400)" })),
    errors: t.Optional(t.Record(t.String(), t.Array(t.String()))),
  },
  { additionalProperties: true, title: "Problem" },
);

/** The error answers most endpoints can give, for the OpenAPI description. */
export const problems = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, Problem]));

export const NoContent = t.Void({ description: "No content" });

export const Id = t.String({ minLength: 1, maxLength: 100, description: "UUIDv7" });

export function noContent(): Response {
  return new Response(null, { status: 204, headers: SECURITY_HEADERS });
}

/** Whether the client reached us over HTTPS (directly or through a trusted proxy), or the public address is HTTPS. */
export const isHttps = (request: Request, baseUrl: string | null) => clientOf(request).https || (baseUrl?.startsWith("https:") ?? false);

/**
 * A whole number in a JSON body: a JSON number only. Elysia's t.Integer also takes digit
 * strings ("3"), which is right for query strings and paths but let `{"operation": "3"}` past
 * its enum check in a body. Queries and paths keep t.Integer.
 */
export const Int = (options?: IntegerOptions) => Type.Integer(options);
