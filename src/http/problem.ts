import { AppError, ERROR_CODES, type ErrorCode } from "../platform/errors";
import { allowedBy } from "./schema-words";
import { fieldSentence } from "../platform/sentences";
import { securedHeaders } from "../platform/security-headers";

/**
 * The one place that turns errors into RFC 9457 problem documents (docs/api.md, "Errors are
 * problem documents").
 */
export function problemResponse(err: AppError): Response {
  const body = err.extras.body
    ? { ...err.extras.body, status: err.status, code: err.problemCode }
    : {
        status: err.status,
        title: err.title,
        code: err.problemCode,
        ...(err.extras.detail ? { detail: short(err.extras.detail, MAX_DETAIL) } : {}),
        ...(err.extras.field ? { field: short(err.extras.field, MAX_FIELD) } : {}),
        ...(err.extras.errors ? { errors: shortErrors(err.extras.errors) } : {}),
        ...err.extras.extra,
      };
  const response = new Response(JSON.stringify(body), { status: err.status, headers: securedHeaders("application/problem+json") });
  for (const [name, value] of Object.entries(err.extras.headers ?? {})) response.headers.set(name, value);
  return response;
}

/**
 * A problem document never carries more than a short piece of anything a client sent: a
 * message that quoted a 95 MB value would cost its size again, in memory and on the wire.
 */
const MAX_DETAIL = 2000;
const MAX_FIELD = 200;
const MAX_FIELDS = 50;
const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

function shortErrors(errors: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors)
      .slice(0, MAX_FIELDS)
      .map(([field, reasons]) => [short(field, MAX_FIELD), reasons.slice(0, 5).map((r) => short(r, MAX_FIELD))]),
  );
}

interface ValueErrorLike {
  path: string;
  message: string;
  value?: unknown;
  schema?: { error?: unknown; description?: string };
}

/** Why a value was refused, as what the field allows where the schema says it. */
function reasonFor(e: ValueErrorLike): string {
  if (e.value === undefined) return "is required";
  if (typeof e.schema?.error === "string") return e.schema.error;
  return allowedBy(e.schema as Parameters<typeof allowedBy>[0]) ?? e.message.replace(/^Expected/, "must be").toLowerCase();
}

/** Elysia's validation error (422 by default) becomes our 400 naming each field. */
export function fromValidation(where: string, all: ValueErrorLike[]): AppError {
  const errors: Record<string, string[]> = {};
  for (const e of all) {
    const field = e.path.replace(/^\//, "").replace(/\//g, ".") || where;
    const reason = reasonFor(e);
    (errors[field] ??= []).includes(reason) || errors[field].push(reason);
  }
  const fields = Object.keys(errors);
  const first = fields[0] ?? where;
  return new AppError("validation_failed", {
    field: first,
    detail: fields.map((f) => fieldSentence(f, errors[f].join("; "))).join(" "),
    errors,
  });
}

export function problemFor(code: ErrorCode, detail?: string): Response {
  return problemResponse(new AppError(code, detail ? { detail } : {}));
}

export const PROBLEM_CODES = Object.entries(ERROR_CODES).map(([code, v]) => ({ code, ...v }));
