/**
 * A space marked public is read anonymously only while the instance setting allowPublicSpaces
 * is on and the space is not archived (access/spaces.ts, isPubliclyReadable). Marking one public
 * otherwise is allowed (a publisher prepares spaces before an administrator turns the setting
 * on), but the answer says why nothing visible changed.
 */
import { t } from "elysia";
import type { Core } from "../core";
import { getSettings } from "./service";

export const PUBLIC_SPACES_OFF_WARNING =
  "allowPublicSpaces is off: anonymous visitors still cannot read this space until an administrator turns it on (PUT /api/admin/settings).";
export const ARCHIVED_PUBLIC_WARNING = "This space is archived: anonymous visitors cannot read it until it is unarchived.";

export const PublicWarning = t.Optional(
  t.String({
    description:
      "Present when the space is marked public but anonymous visitors still cannot read it, saying why " +
      "(the instance setting allowPublicSpaces is off, or the space is archived)",
  }),
);

/** The space's answer, with `warning` when it is public in name only. */
export function withPublicWarning<S extends { isPublic: boolean; archived: boolean }>(core: Core, space: S): S & { warning?: string } {
  if (!space.isPublic) return space;
  if (!getSettings(core).allowPublicSpaces) return { ...space, warning: PUBLIC_SPACES_OFF_WARNING };
  if (space.archived) return { ...space, warning: ARCHIVED_PUBLIC_WARNING };
  return space;
}
