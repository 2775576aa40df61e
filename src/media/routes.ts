import { Elysia } from "elysia";
import type { Core } from "../core";
import { bodyLimit, MB } from "../http/body";
import { callerOf } from "../http/request-state";
import { NoContent, noContent, problems } from "../http/schemas";
import { KeyParams, Space } from "../spaces/schemas";
import { Account } from "../users/schemas";
import { imageResponse } from "./image-response";
import { ImageBytes, imageRequestBody, UserIdParams, VariantBody } from "./schemas";
import {
  AVATAR_MAX_BYTES,
  ICON_MAX_BYTES,
  openAvatar,
  openSpaceIcon,
  removeAvatar,
  removeSpaceIcon,
  setAvatarVariant,
  uploadAvatar,
  uploadSpaceIcon,
} from "./service";

const detail = (summary: string, extra: Record<string, unknown> = {}) => ({
  tags: ["Media"],
  summary,
  ...extra,
});

const uploadOf = (request: Request) => ({
  contentType: request.headers.get("content-type"),
  contentLength: request.headers.get("content-length"),
  body: request.body,
});

/** /api/media/*: avatars and space icons (media/service.ts has the rules). */
export function mediaRoutes(core: Core) {
  return new Elysia()
    .get(
      "/api/media/avatars/:userId",
      async ({ params, request }) => imageResponse(request, await openAvatar(core, callerOf(request), params.userId)),
      {
        params: UserIdParams,
        response: {
          200: ImageBytes("The account's uploaded avatar, 256 × 256 at most"),
          ...problems(401, 404),
        },
        detail: detail(
          "An account's avatar (signed in); 404 when none was uploaded: show the initials on the account's avatarVariant colour",
        ),
      },
    )
    .put("/api/media/avatars/me", async ({ request }) => uploadAvatar(core, callerOf(request), uploadOf(request)), {
      response: { 200: Account, ...problems(400, 401, 403, 413, 415) },
      detail: detail("Upload your avatar (browser session only; multipart field `file`); answers your account with its new avatarUrl", {
        description:
          "PNG, JPEG or WebP. The picture is decoded, cropped to a centred square, shrunk to 256 × 256 at most and re-encoded as " +
          "WebP, so nothing of the uploaded file but its pixels is kept (EXIF, GPS position and other metadata are dropped; a " +
          "JPEG's orientation is applied first). SVG, GIF, HEIC and animations are refused with 415, as is a picture over 12.5 " +
          "megapixels (width × height × 4 bytes over the 48 MB decoding budget, checked from the header before decoding); a " +
          "damaged file is 400 on `file`; over 10 MB is 413; 429 when too many images are already waiting to be decoded.",
        requestBody: imageRequestBody(AVATAR_MAX_BYTES),
        ...bodyLimit(AVATAR_MAX_BYTES, `Avatars may be at most ${AVATAR_MAX_BYTES / MB} MB.`, { streamed: true }),
      }),
    })
    .delete(
      "/api/media/avatars/me",
      ({ request }) => {
        removeAvatar(core, callerOf(request));
        return noContent();
      },
      {
        response: { 204: NoContent, ...problems(401, 403) },
        detail: detail("Remove your avatar (browser session only): the generated one (initials) shows again"),
      },
    )
    .put("/api/media/avatars/me/variant", ({ body, request }) => setAvatarVariant(core, callerOf(request), body.variant), {
      body: VariantBody,
      response: { 200: Account, ...problems(400, 401, 403) },
      detail: detail("Choose your generated avatar's colour (browser session only); shown whenever no picture is uploaded"),
    })
    .get(
      "/api/media/space-icons/:key",
      async ({ params, request }) => imageResponse(request, await openSpaceIcon(core, callerOf(request), params.key)),
      {
        params: KeyParams,
        response: {
          200: ImageBytes("The space's uploaded icon, 128 × 128 at most"),
          ...problems(404),
        },
        detail: detail("A space's uploaded icon (whoever may see the space); 404 when there is none"),
      },
    )
    .put(
      "/api/media/space-icons/:key",
      async ({ params, request }) => uploadSpaceIcon(core, callerOf(request), params.key, uploadOf(request)),
      {
        params: KeyParams,
        response: { 200: Space, ...problems(400, 401, 403, 404, 413, 415) },
        detail: detail("Upload a space's icon (space administrators; multipart field `file`); the space's iconKind becomes 2 Image", {
          description:
            "PNG, JPEG or WebP, re-encoded as a WebP of 128 × 128 at most (cropped to a centred square, metadata " +
            "dropped). The space's iconValue becomes the icon's address (/api/media/space-icons/{key}?v=<hash>). " +
            "Refused while the space is archived (403). Same refusals as the avatar upload.",
          requestBody: imageRequestBody(ICON_MAX_BYTES),
          ...bodyLimit(ICON_MAX_BYTES, `Space icons may be at most ${ICON_MAX_BYTES / MB} MB.`, { streamed: true }),
        }),
      },
    )
    .delete(
      "/api/media/space-icons/:key",
      ({ params, request }) => {
        removeSpaceIcon(core, callerOf(request), params.key);
        return noContent();
      },
      {
        params: KeyParams,
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: detail(
          "Remove a space's uploaded icon (space administrators); a space showing it returns to the generated icon (iconKind 0)",
        ),
      },
    );
}
