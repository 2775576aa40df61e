/**
 * A list of values bound as ONE parameter: SQLite reads it with json_each, so a statement takes
 * a list of any length (no limit on bound variables) and stays one prepared statement. The one
 * place that spelling lives: a second backend writes `= ANY($1)` here instead.
 */
import { sql, type SQL } from "drizzle-orm";

/** SQL: the values of `list` as a one-column sub-select, for `x IN (…)`. */
export function listOf(list: readonly (string | number)[]): SQL {
  return listOfJson(JSON.stringify(list));
}

/** listOf for a list already written as a JSON array (kept that way to be bound often). */
export function listOfJson(json: string): SQL {
  return sql`SELECT value FROM json_each(${json})`;
}

/** The same sub-select for a raw prepared statement, reading a parameter that holds JSON. */
export function listParam(param: string): string {
  return `SELECT value FROM json_each(${param})`;
}

/**
 * A list of rows bound as one parameter holding a JSON array of arrays: a sub-select with one
 * column per name, the n-th name reading the n-th value of each row.
 */
export function rowsParam(param: string, columns: readonly string[]): string {
  return `SELECT ${columns.map((name, i) => `json_extract(value, '$[${i}]') AS ${name}`).join(", ")} FROM json_each(${param})`;
}
