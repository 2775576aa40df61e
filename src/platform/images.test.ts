import { describe, expect, test } from "bun:test";
import { flatPng, GPS_MARKER, jpegWithGps, pngBombHeader, pngPicture, SVG_FILE, webpPicture } from "../../tests/image-fixtures";
import { fastestOf } from "../../tests/fastest";
import { AppError } from "./errors";
import { sniffImage } from "./image-header";
import { plan } from "./image-resize";
import { MAX_WAITING } from "./image-queue";
import { DECODE_BUDGET_BYTES, DEFAULT_MAX_PIXELS, type ImageRules, processImage } from "./images";

const AVATAR: ImageRules = {
  accept: ["png", "jpeg", "webp"],
  maxBytes: 5 << 20,
  resize: { fit: "cover", width: 256, height: 256 },
  output: "webp",
};

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

const contains = (hay: Uint8Array, needle: string) => Buffer.from(hay).includes(Buffer.from(needle));

/** The chunk names of a WebP file (RIFF container). */
function webpChunks(b: Uint8Array): string[] {
  const names: string[] = [];
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let at = 12; at + 8 <= b.length; ) {
    names.push(String.fromCharCode(...b.subarray(at, at + 4)));
    at += 8 + v.getUint32(at + 4, true) + (v.getUint32(at + 4, true) & 1);
  }
  return names;
}

describe("processImage", () => {
  test("a JPEG photo with EXIF GPS becomes a 256×256 WebP with no metadata", async () => {
    const jpeg = await jpegWithGps(1200, 800);
    expect(contains(jpeg, GPS_MARKER)).toBe(true);
    expect(contains(jpeg, "Exif")).toBe(true);
    const out = await processImage(jpeg, AVATAR);
    expect(out).toMatchObject({ format: "webp", contentType: "image/webp", width: 256, height: 256, sourceFormat: "jpeg" });
    expect(String.fromCharCode(...out.bytes.subarray(8, 12))).toBe("WEBP");
    expect(contains(out.bytes, GPS_MARKER)).toBe(false);
    expect(contains(out.bytes, "Exif")).toBe(false);
    expect(webpChunks(out.bytes).filter((c) => !["VP8 ", "VP8L", "VP8X", "ALPH"].includes(c))).toEqual([]);
  });

  test("the EXIF orientation is applied before the EXIF block is dropped (a portrait stays a portrait)", async () => {
    // Stored 400 wide × 200 high, orientation 6 (turn 90° clockwise): shown 200 × 400.
    const out = await processImage(await jpegWithGps(400, 200, 6), { ...AVATAR, resize: { fit: "inside", width: 1000, height: 1000 } });
    expect([out.width, out.height]).toEqual([200, 400]);
  });

  test("PNG and WebP inputs decode; PNG output; small pictures are never enlarged", async () => {
    const fromPng = await processImage(await pngPicture(300, 200), { ...AVATAR, output: "png" });
    expect([fromPng.width, fromPng.height, fromPng.contentType]).toEqual([200, 200, "image/png"]);
    expect(sniffImage(fromPng.bytes)).toMatchObject({ kind: "raster", format: "png", width: 200, height: 200 });
    const fromWebp = await processImage(await webpPicture(120, 90), {
      ...AVATAR,
      resize: { fit: "inside", width: 512, height: 512 },
      lossless: true,
    });
    expect([fromWebp.width, fromWebp.height, fromWebp.sourceFormat]).toEqual([120, 90, "webp"]);
  });

  test("SVG, GIF, unknown bytes and formats outside `accept` are 415 naming what is accepted", async () => {
    const svg = await refusal(processImage(SVG_FILE, AVATAR));
    expect([svg.status, svg.problemCode]).toEqual([415, "unsupported_media_type"]);
    expect(svg.message).toContain("SVG images are not accepted");
    expect(svg.message).toContain("PNG, JPEG or WebP");
    const gif = await refusal(processImage(new TextEncoder().encode("GIF89a\x01\x00\x01\x00"), AVATAR));
    expect(gif.message).toContain("GIF");
    const text = await refusal(processImage(new TextEncoder().encode("hello, world"), AVATAR));
    expect(text.status).toBe(415);
    const jpegForLogo = await refusal(processImage(await jpegWithGps(64, 64), { ...AVATAR, accept: ["png", "webp"] }));
    expect([jpegForLogo.status, jpegForLogo.message]).toEqual([415, "JPEG images are not accepted here. Upload a PNG or WebP image."]);
  });

  test("a header declaring 100,000 × 100,000 pixels is refused before decoding", async () => {
    const e = await refusal(processImage(pngBombHeader(), AVATAR));
    expect(e.status).toBe(415);
    expect(e.message).toContain("100000 × 100000");
    // Decoding 40 GB of pixels would take far longer than 50 ms on every try.
    expect(await fastestOf(5, () => refusal(processImage(pngBombHeader(), AVATAR)))).toBeLessThan(50);
  });

  test("the decoding budget: 48 MB of RGBA (12.5 MP, a phone's 12 MP photo fits); one " +
    "pixel more is refused from the header, naming the size", async () => {
    expect(DECODE_BUDGET_BYTES).toBe(48 * 1024 * 1024);
    expect(DEFAULT_MAX_PIXELS).toBe(12_582_912);
    const fits = await processImage(flatPng(4032, 3024), AVATAR);
    expect([fits.width, fits.height]).toEqual([256, 256]);
    const e = await refusal(processImage(flatPng(3547, 3548), { ...AVATAR, field: "logo" }));
    expect([e.status, e.extras.field, e.extras.extra]).toEqual([
      415,
      "logo",
      expect.objectContaining({ width: 3547, height: 3548, maxPixels: DEFAULT_MAX_PIXELS }),
    ]);
    expect(e.message).toBe(
      "The image is 3547 × 3548 pixels (12,584,756, 48 MB once decoded); the most Cairn decodes is " +
        "12,582,912 pixels (48 MB) and 20000 a side. Upload a smaller image.",
    );
    // A rule may lower the cap, not raise it past the budget.
    expect((await refusal(processImage(flatPng(4000, 4000), { ...AVATAR, maxPixels: 100_000_000 }))).status).toBe(415);
  }, 30_000);

  test("one decode at a time: a burst beyond the line's length is 429 at once, the rest are decoded", async () => {
    const png = await pngPicture(40, 40);
    const burst = Array.from({ length: MAX_WAITING + 3 }, () =>
      processImage(png, AVATAR).then(
        () => 200,
        (e: AppError) => e.status,
      ),
    );
    const statuses = await Promise.all(burst);
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_WAITING);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    expect(await processImage(png, AVATAR).then(() => 200)).toBe(200);
  });

  test("over the byte cap is 413; empty is 400; damaged data is 400 naming the field", async () => {
    const big = await jpegWithGps(800, 600);
    const tooBig = await refusal(processImage(big, { ...AVATAR, maxBytes: 1000 }));
    expect([tooBig.status, tooBig.extras.field]).toEqual([413, "file"]);
    expect((await refusal(processImage(new Uint8Array(), AVATAR))).status).toBe(400);
    // Cut before the frame header. (Cut inside the scan data, a JPEG still decodes, the missing
    // rows grey, as in browsers: libjpeg is lenient there.)
    const cut = big.slice(0, 200);
    const damaged = await refusal(processImage(cut, { ...AVATAR, field: "avatar" }));
    expect([damaged.status, damaged.extras.field]).toEqual([400, "avatar"]);
    const garbage = (await pngPicture(50, 50)).slice();
    garbage.fill(7, 40);
    expect((await refusal(processImage(garbage, AVATAR))).status).toBe(400);
  });

  test("an animated WebP is refused", async () => {
    const webp = await webpPicture(10, 10);
    // A VP8X header with the animation flag set.
    const vp8x = new Uint8Array(30);
    vp8x.set(webp.subarray(0, 12));
    vp8x.set(new TextEncoder().encode("VP8X"), 12);
    vp8x[16] = 10;
    vp8x[20] = 0x02;
    vp8x[24] = 9;
    vp8x[27] = 9;
    expect((await refusal(processImage(vp8x, AVATAR))).message).toContain("Animated");
  });
});

describe("resize plan", () => {
  test("cover crops to the box's aspect around the centre and never enlarges", () => {
    expect(plan(2000, 1000, { fit: "cover", width: 256, height: 256 })).toMatchObject({
      cropX: 500,
      cropY: 0,
      cropW: 1000,
      cropH: 1000,
      outW: 256,
      outH: 256,
    });
    expect(plan(100, 80, { fit: "cover", width: 256, height: 256 })).toMatchObject({ outW: 80, outH: 80 });
    expect(plan(4000, 1000, { fit: "inside", width: 512, height: 512 })).toMatchObject({ outW: 512, outH: 128 });
  });
});
