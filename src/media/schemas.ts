import { t } from "elysia";
import { Id, Int } from "../http/schemas";
import { AVATAR_VARIANTS } from "../users/avatars";

export const UserIdParams = t.Object({ userId: Id });

export const VariantBody = t.Object({
  variant: Int({
    minimum: 0,
    maximum: AVATAR_VARIANTS - 1,
    description: `The generated avatar's colour: 0 automatic (from the account id), 1–${AVATAR_VARIANTS - 1} a chosen colour`,
  }),
});

/** The multipart body of an image upload, for the API description (the route reads it as a stream). */
export const imageRequestBody = (maxBytes: number) => ({
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        required: ["file"],
        properties: {
          file: {
            type: "string",
            format: "binary",
            description:
              `A PNG, JPEG or WebP image, at most ${maxBytes / 1024 / 1024} MB (${maxBytes} bytes) and 12.5 ` +
              `megapixels (48 MB decoded); SVG, GIF, animations and larger pictures are refused (415)`,
          },
        },
      },
    },
  },
});

/** A stored picture as GET answers it. */
export const ImageBytes = (description: string) =>
  t.String({
    format: "binary",
    description:
      `${description}. Always image/webp, re-encoded by the server (no metadata). ETag is the image's SHA-256 (If-None-Match answers ` +
      `304); with ?v= matching the current image the answer may be cached for a year (the address changes with the picture).`,
    headers: {
      ETag: t.String(),
      "Cache-Control": t.String(),
      "X-Content-Type-Options": t.Literal("nosniff"),
    },
  });
