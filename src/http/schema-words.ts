/**
 * What a schema allows, in words, for validation messages: "must be a whole number from 0 to
 * 2", "must be true or false", "must be one of: a, b". TypeBox's own messages ("Expected union
 * value") say what went wrong in its terms, not what the person should send.
 */
interface Schema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
}

const range = (min: number | undefined, max: number | undefined, unit = "") =>
  min !== undefined && max !== undefined
    ? ` from ${min} to ${max}${unit}`
    : min !== undefined
      ? ` of at least ${min}${unit}`
      : max !== undefined
        ? ` of at most ${max}${unit}`
        : "";

const FORMATS: Record<string, string> = {
  "date-time": "a date and time such as 2026-01-31T12:00:00Z",
  date: "a date such as 2026-01-31",
  email: "an e-mail address",
  uri: "a URL",
  uuid: "an id",
};

export function allowedBy(schema: Schema | undefined): string | null {
  if (!schema) return null;
  if (schema.anyOf) return union(schema.anyOf);
  if (schema.const !== undefined) return `must be ${JSON.stringify(schema.const)}`;
  if (schema.enum) return `must be one of: ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  switch (schema.type) {
    case "integer": {
      const least = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
      return `must be a whole number${range(least, schema.maximum)}`;
    }
    case "number":
      return `must be a number${range(schema.minimum, schema.maximum)}`;
    case "boolean":
      return "must be true or false";
    case "string": {
      if (schema.format && FORMATS[schema.format]) return `must be ${FORMATS[schema.format]}`;
      if (schema.minLength || schema.maxLength !== undefined) {
        const min = schema.minLength && schema.minLength > 1 ? schema.minLength : undefined;
        return schema.minLength === 1 && schema.maxLength !== undefined && min === undefined
          ? `must be text of 1 to ${schema.maxLength} characters`
          : `must be text${range(min ?? (schema.minLength === 1 ? 1 : undefined), schema.maxLength, " characters")}`;
      }
      return "must be text";
    }
    case "array":
      return `must be a list${schema.maxItems !== undefined ? ` of at most ${schema.maxItems} items` : ""}`;
    case "object":
      return "must be an object";
    case "null":
      return "must be null";
  }
  return null;
}

/** Elysia's digit-string branches (t.Integer, t.BooleanString) describe the same value twice. */
function union(branches: Schema[]): string | null {
  const literals = branches.filter((b) => b.const !== undefined);
  if (literals.length === branches.length) return `must be one of: ${literals.map((b) => JSON.stringify(b.const)).join(", ")}`;
  const nullable = branches.some((b) => b.type === "null");
  const rest = branches.filter(
    (b) => b.type !== "null" && !(b.type === "string" && (b.format === "integer" || b.format === "numeric" || b.format === "boolean")),
  );
  const words = [...new Set(rest.map(allowedBy))];
  if (words.some((w) => w === null) || !words.length) {
    const boolean = branches.some((b) => b.type === "string" && b.format === "boolean");
    return boolean ? "must be true or false" : null;
  }
  return `${words.map((w, i) => (i ? w!.replace(/^must be /, "") : w)).join(" or ")}${nullable ? " or null" : ""}`;
}
