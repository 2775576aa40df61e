/**
 * What a backup target's settings may be (PUT /api/admin/backups/targets/{slot}): each field is
 * checked, and the first wrong one is a 400 naming it with what to change.
 */
import { resolve } from "node:path";
import type { Core } from "../core";
import { invalid } from "../platform/errors";
import { checkOutboundUrl, OutboundError } from "../platform/outbound";
import { refusedFolder, UNSEEN_IN_PATH } from "./target-folders";
import type { S3Target, Slot } from "./targets-store";

/** The body as sent: the fields of either slot (the other slot's are refused). */
export interface TargetInput {
  path?: string;
  endpoint?: string;
  region?: string;
  bucket?: string;
  prefix?: string;
  pathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export type CheckedTarget = { slot: "directory"; path: string } | { slot: "s3"; target: S3Target; secretGiven: boolean };

const DIRECTORY_FIELDS = ["path"] as const;
const S3_FIELDS = ["endpoint", "region", "bucket", "prefix", "pathStyle", "accessKeyId", "secretAccessKey"] as const;

const REGION = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
// S3's bucket naming rules (3 to 63 characters; lowercase letters, digits, dots and hyphens).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_PART = /^[A-Za-z0-9._-]+$/;
const KEY_TEXT = /^[\x21-\x7e]+$/;

function required(input: TargetInput, field: keyof TargetInput): string {
  const v = input[field];
  if (v === undefined || v === null || (typeof v === "string" && v.trim() === "")) throw invalid(field, "is required");
  if (typeof v !== "string") throw invalid(field, "must be text");
  return v.trim();
}

/** Absolute, plain (no control or invisible characters, no ".."), and not a folder refused by target-folders.ts. */
function checkPath(core: Core, raw: string, untrimmed: string): string {
  if (!raw.startsWith("/"))
    throw invalid("path", "must be an absolute path (starting with /): the folder on the external disk or network mount");
  if (raw.includes("\0")) throw invalid("path", "must not contain a NUL character");
  if (UNSEEN_IN_PATH.test(untrimmed))
    throw invalid(
      "path",
      "must not contain control characters or invisible ones (a line break, a tab, a " +
        "zero-width space…): type the folder's name as it reads",
    );
  if (raw.split("/").includes("..")) throw invalid("path", 'must not contain ".."');
  const path = resolve(raw);
  const why = refusedFolder(path, core.data.root);
  if (why) throw invalid("path", why);
  return path;
}

function checkEndpoint(raw: string): string {
  let url: URL;
  try {
    url = checkOutboundUrl(raw);
  } catch (err) {
    throw invalid("endpoint", err instanceof OutboundError ? err.message.replace(/^bad URL: /, "") : "must be an http or https URL");
  }
  if (url.pathname !== "/" || url.search || url.hash)
    throw invalid("endpoint", "must be the service's address alone (scheme, host and port), without a path: the bucket is its own field");
  return url.origin;
}

function checkPrefix(raw: string | undefined): string {
  if (raw === undefined || raw === null) return "";
  if (typeof raw !== "string") throw invalid("prefix", "must be text");
  const prefix = raw.trim().replace(/^\/+|\/+$/g, "");
  if (prefix === "") return "";
  if (prefix.length > 200) throw invalid("prefix", "must be at most 200 characters");
  for (const part of prefix.split("/")) {
    if (!PREFIX_PART.test(part) || part === "." || part === "..")
      throw invalid("prefix", 'must be folder names of letters, digits, ".", "-" and "_" separated by "/"');
  }
  return prefix;
}

/**
 * `previous`: the stored S3 slot's endpoint and key id. The secret may be left out to keep the
 * stored one, unless the endpoint or the key id changes (a kept secret never goes to a new place).
 */
export function checkTargetInput(
  core: Core,
  slot: Slot,
  input: TargetInput,
  previous: { endpoint: string; accessKeyId: string } | null,
): CheckedTarget {
  const allowed: readonly string[] = slot === "directory" ? DIRECTORY_FIELDS : S3_FIELDS;
  for (const field of Object.keys(input)) {
    if ((input as Record<string, unknown>)[field] !== undefined && !allowed.includes(field))
      throw invalid(field, `is not a setting of the ${slot} slot (it takes ${allowed.join(", ")})`);
  }
  // Looked at before trimming: a line break at either end is no less a control character.
  if (slot === "directory") return { slot, path: checkPath(core, required(input, "path"), input.path as string) };
  const endpoint = checkEndpoint(required(input, "endpoint"));
  const region = required(input, "region");
  if (!REGION.test(region)) throw invalid("region", 'must be a region name such as "us-east-1" (or "auto" for Cloudflare R2)');
  const bucket = required(input, "bucket");
  if (!BUCKET.test(bucket) || bucket.includes(".."))
    throw invalid(
      "bucket",
      "must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit",
    );
  const prefix = checkPrefix(input.prefix);
  const pathStyle = input.pathStyle ?? true;
  if (typeof pathStyle !== "boolean") throw invalid("pathStyle", "must be true or false");
  const accessKeyId = required(input, "accessKeyId");
  if (!KEY_TEXT.test(accessKeyId) || accessKeyId.length > 128)
    throw invalid("accessKeyId", "must be 1 to 128 printable characters without spaces");
  const secretGiven = input.secretAccessKey !== undefined && input.secretAccessKey !== "";
  let secretAccessKey = "";
  if (secretGiven) {
    secretAccessKey = required(input, "secretAccessKey");
    if (!KEY_TEXT.test(secretAccessKey) || secretAccessKey.length > 256)
      throw invalid("secretAccessKey", "must be 1 to 256 printable characters without spaces");
  } else if (!previous) throw invalid("secretAccessKey", "is required");
  else if (previous.endpoint !== endpoint || previous.accessKeyId !== accessKeyId)
    throw invalid("secretAccessKey", "is required again when the endpoint or the access key ID changes");
  return { slot, target: { endpoint, region, bucket, prefix, pathStyle, accessKeyId, secretAccessKey }, secretGiven };
}
