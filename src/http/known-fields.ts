import { AppError } from "../platform/errors";

/**
 * A body field that the route does not know is a 400 naming it, so a typo (`content` for
 * `contentJson`) never silently does nothing. A client may still send back what it read: the
 * fields of the resource the route answers (its 200 or 201 shape) are accepted and ignored
 * where they are read-only. Only the top level of a body is checked; nested objects are
 * checked by their schemas.
 */
interface RouteLike {
  method: string;
  path: string;
  hooks?: unknown;
}

interface Schema {
  properties?: Record<string, unknown>;
  anyOf?: Schema[];
}

export type KnownFields = Map<string, { takes: string[]; accepted: Set<string> }>;

const fieldsOf = (schema: Schema | undefined): string[] | null => {
  if (!schema) return null;
  if (schema.properties) return Object.keys(schema.properties);
  if (schema.anyOf) {
    const all = schema.anyOf.map(fieldsOf);
    return all.some((f) => f === null) ? null : [...new Set(all.flat() as string[])];
  }
  return null;
};

export function knownFields(routes: readonly RouteLike[]): KnownFields {
  const known: KnownFields = new Map();
  for (const route of routes) {
    const hooks = route.hooks as { body?: Schema; response?: Record<string, Schema> } | undefined;
    const takes = fieldsOf(hooks?.body);
    if (!takes) continue;
    const shape = fieldsOf(hooks?.response?.[200] ?? hooks?.response?.[201]) ?? [];
    known.set(`${route.method} ${route.path}`, { takes, accepted: new Set([...takes, ...shape]) });
  }
  return known;
}

export function checkKnownFields(known: KnownFields, method: string, route: string, body: unknown): void {
  if (!body || typeof body !== "object" || Array.isArray(body)) return;
  const entry = known.get(`${method} ${route}`);
  if (!entry) return;
  const unknown = Object.keys(body).filter((k) => !entry.accepted.has(k));
  if (!unknown.length) return;
  const reason = `is not a field of this request (it takes ${entry.takes.join(", ") || "no fields"})`;
  const errors = Object.fromEntries(unknown.slice(0, 20).map((k) => [k, [reason]]));
  throw new AppError("validation_failed", { field: unknown[0], detail: `${unknown.slice(0, 5).join(", ")}: ${reason}`, errors });
}
