import { t } from "elysia";
import { ACCENT_NAME_MAX, BRAND_NAME_MAX } from "./rules";
import { FILE_MAX_BYTES } from "./files";

// The enums as literal unions (rules.ts holds the lists; the service's types must fit these).
// Not t.UnionEnum: Elysia gives it a default, which would fill an optional field left out.
const DisplaySchema = (description: string) => t.Union([t.Literal("name"), t.Literal("logo"), t.Literal("logo-and-name")], { description });
const ArrangementSchema = (description: string) => t.Union([t.Literal("centered"), t.Literal("split")], { description });
const ThemePolicySchema = (description: string) => t.Union([t.Literal("user"), t.Literal("light"), t.Literal("dark")], { description });
const AccentPolicySchema = (description: string) => t.Union([t.Literal("default"), t.Literal("custom")], { description });

const Colour = (description: string) => t.String({ pattern: "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$", description });

const FIELDS = {
  brandName: t.Nullable(
    t.String({
      maxLength: 200,
      description:
        `The name shown in the top bar, the sign-in screen and the window title: one line, at most ${BRAND_NAME_MAX} ` +
        `characters, surrounding spaces dropped. Null (or blank) uses the instance name (settings.instanceName)`,
    }),
  ),
  display: DisplaySchema(
    '"name": the name with Cairn\'s mark; "logo": the logo alone (its alternative text is the ' +
      'name); "logo-and-name": both. Without a logo for the theme, the name shows',
  ),
  signInArrangement: ArrangementSchema(
    '"centered": one card in the middle; "split": the logo and name in a panel tinted ' +
      "with the accent, beside the form (above it on narrow screens)",
  ),
  themePolicy: ThemePolicySchema(
    '"user": the system\'s theme, and each person may switch; "light" or "dark": everyone sees that theme and the switch is hidden',
  ),
  accentPolicy: AccentPolicySchema('"default": Cairn\'s own accent; "custom": accentLight and accentDark'),
  accentName: t.Nullable(
    t.String({
      maxLength: 200,
      description:
        `A name for the custom accent ("Acme green"), for the people who manage ` +
        `branding: at most ${ACCENT_NAME_MAX} characters; null clears it`,
    }),
  ),
  accentLight: Colour(
    "The accent in the light theme, #rrggbb. Must reach WCAG AA (4.5:1) against white, the light surface " +
      "(#f7f7f8) and white button labels; a colour that does not is refused with 400 and `suggestion`",
  ),
  accentDark: Colour(
    "The accent in the dark theme, #rrggbb. Must reach WCAG AA (4.5:1) against the dark background (#16181b), the dark " +
      "surface (#1d2024) and the dark button label (#0f1a16); refused with 400 and `suggestion` otherwise",
  ),
};

export const BrandingFile = t.Object(
  {
    url: t.String({ description: "Where the image is served (anonymously): /api/branding/{slot}?v=<hash of its bytes>" }),
    contentType: t.String({ description: "image/png, image/webp or image/svg+xml" }),
    size: t.Integer({ description: "Bytes, as stored (after re-encoding or sanitising)" }),
    width: t.Nullable(t.Integer()),
    height: t.Nullable(t.Integer({ description: "Pixels; null for an SVG without plain pixel dimensions" })),
    updatedAt: t.String({ format: "date-time" }),
  },
  { title: "BrandingFile" },
);

export const Branding = t.Object(
  {
    brandName: t.Nullable(t.String()),
    display: FIELDS.display,
    signInArrangement: FIELDS.signInArrangement,
    themePolicy: FIELDS.themePolicy,
    accentPolicy: FIELDS.accentPolicy,
    accentName: t.Nullable(t.String()),
    accentLight: t.String({ description: "#rrggbb (kept while accentPolicy is default, and used again when it becomes custom)" }),
    accentDark: t.String({ description: "#rrggbb" }),
    instanceName: t.String({ description: "The instance's name: the brand name while brandName is null" }),
    logo: t.Nullable(BrandingFile),
    logoDark: t.Nullable(BrandingFile),
    favicon: t.Nullable(BrandingFile),
    updatedAt: t.Nullable(t.String({ format: "date-time", description: "Null until an administrator changed anything" })),
  },
  { title: "Branding" },
);

/** The fields to change: any of them, at least one. */
export const BrandingChange = t.Object(Object.fromEntries(Object.entries(FIELDS).map(([k, s]) => [k, t.Optional(s)])), {
  title: "BrandingChange",
});

export const UploadedBrandingFile = t.Composite(
  [
    BrandingFile,
    t.Object({
      removed: t.Array(t.String(), {
        description: "What the SVG sanitiser took out (scripts, event handlers, links outside the image…); empty for PNG and WebP",
      }),
    }),
  ],
  { title: "UploadedBrandingFile" },
);

const Check = t.Object({
  against: t.String({ description: '"page background", "surface" or "button label"' }),
  colour: t.String({ description: "What the accent meets there, #rrggbb" }),
  ratio: t.Number({ description: "WCAG 2 contrast ratio, rounded down to two decimals" }),
  passesAA: t.Boolean({ description: "At least 4.5:1" }),
});

const Verdict = t.Object({
  colour: t.String({ description: "The colour checked, as #rrggbb" }),
  checks: t.Array(Check),
  passesAA: t.Boolean(),
  suggestion: t.String({
    description:
      "The colour itself when it passes, else the nearest colour of the same hue and " +
      "saturation that does (darker in light, lighter in dark)",
  }),
});

export const AccentPreview = t.Object({ light: t.Nullable(Verdict), dark: t.Nullable(Verdict) }, { title: "AccentPreview" });

export const AccentPreviewRequest = t.Object(
  {
    light: t.Optional(t.String({ maxLength: 20, description: "A light-theme accent, #rrggbb or #rgb" })),
    dark: t.Optional(t.String({ maxLength: 20, description: "A dark-theme accent" })),
  },
  { title: "AccentPreviewRequest" },
);

export const SlotParams = t.Object({
  slot: t.Union([t.Literal("logo"), t.Literal("logo-dark"), t.Literal("favicon")], { description: "logo, logo-dark or favicon" }),
});

export const VersionQuery = t.Object({
  v: t.Optional(
    t.String({ maxLength: 64, description: "The hash in the file's url; any other value is answered with the current file, not cached" }),
  ),
});

/** The multipart body of an upload, for the API description (the route reads it as a stream). */
export const brandingUploadBody = {
  required: true as const,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        required: ["file"],
        properties: {
          file: {
            type: "string" as const,
            format: "binary",
            description: `A PNG, WebP or SVG image, at most ${FILE_MAX_BYTES / 1024 / 1024} MB`,
          },
        },
      },
    },
  },
};

export const BrandingImage = t.String({
  format: "binary",
  description:
    "The image: image/png, image/webp or image/svg+xml (sanitised; served with " +
    "Content-Security-Policy: sandbox and X-Content-Type-Options: nosniff)",
});

/** The branding part of GET /api/instance: what the UI needs before anyone signs in. */
export const PublicBranding = t.Object(
  {
    brandName: t.String({ description: "The brand name, or the instance name when none is set" }),
    display: FIELDS.display,
    signInArrangement: FIELDS.signInArrangement,
    themePolicy: FIELDS.themePolicy,
    accentLight: t.String({ description: "The accent in use in the light theme (Cairn's own unless accentPolicy is custom), #rrggbb" }),
    accentDark: t.String({ description: "The accent in use in the dark theme, #rrggbb" }),
    logoUrl: t.Nullable(t.String({ description: "/api/branding/logo?v=<hash>; changes with the image" })),
    logoDarkUrl: t.Nullable(t.String()),
    faviconUrl: t.Nullable(t.String()),
  },
  { title: "PublicBranding" },
);
