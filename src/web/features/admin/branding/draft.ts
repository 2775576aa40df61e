/**
 * The values being edited in the branding section, as form text (an empty brand name means
 * "the instance name"), and the change to send: only what differs from the server's.
 */
import type { Branding, BrandingChange } from "./queries";

export interface Draft {
  brandName: string;
  display: Branding["display"];
  signInArrangement: Branding["signInArrangement"];
  themePolicy: Branding["themePolicy"];
  accentPolicy: Branding["accentPolicy"];
  accentName: string;
  accentLight: string;
  accentDark: string;
}

export function draftOf(b: Branding): Draft {
  return {
    brandName: b.brandName ?? "",
    display: b.display,
    signInArrangement: b.signInArrangement,
    themePolicy: b.themePolicy,
    accentPolicy: b.accentPolicy,
    accentName: b.accentName ?? "",
    accentLight: b.accentLight,
    accentDark: b.accentDark,
  };
}

/** What to PUT: the fields whose value differs from the server's (blank texts as null). */
export function changeOf(d: Draft, b: Branding): BrandingChange {
  const next = {
    brandName: d.brandName.trim() || null,
    display: d.display,
    signInArrangement: d.signInArrangement,
    themePolicy: d.themePolicy,
    accentPolicy: d.accentPolicy,
    accentName: d.accentName.trim() || null,
    accentLight: d.accentLight.toLowerCase(),
    accentDark: d.accentDark.toLowerCase(),
  };
  const change: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(next)) if (v !== (b as Record<string, unknown>)[k]) change[k] = v;
  return change as BrandingChange;
}
