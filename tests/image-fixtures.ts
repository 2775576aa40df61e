/**
 * Real image files made in the test, for the upload tests: a JPEG photo carrying an EXIF block
 * with a GPS position (and an orientation), PNG and WebP pictures, and files that only pretend.
 * The JPEG is encoded by mozjpeg (the @jsquash/jpeg encoder, not something Cairn itself uses),
 * then an APP1 "Exif" segment is spliced in after the start marker, as a camera writes it.
 */
import jpegEncoderWasm from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm" with { type: "file" };
import encodeJpeg, { init as initJpegEncoder } from "@jsquash/jpeg/encode.js";
import { encodePixels } from "../src/platform/image-codecs";

/** The text in the EXIF block, so a test can look for it in whatever Cairn stored. */
export const GPS_MARKER = "CairnTestCameraAt51N";

let encoderReady: Promise<void> | undefined;

/** A smooth, photo-like RGBA picture (gradients and a few shapes), width × height. */
export function photoPixels(width: number, height: number): { data: Uint8ClampedArray; width: number; height: number } {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x / width) * 255;
      data[i + 1] = (y / height) * 255;
      data[i + 2] = 128 + 90 * Math.sin(x / 37) * Math.cos(y / 53);
      data[i + 3] = 255;
    }
  }
  return { data, width, height };
}

/** A JPEG of `width` × `height` with EXIF (GPS position, camera text, the given orientation). */
export async function jpegWithGps(width = 640, height = 480, orientation = 1): Promise<Uint8Array> {
  encoderReady ??= Bun.file(jpegEncoderWasm)
    .arrayBuffer()
    .then(async (b) => initJpegEncoder(await WebAssembly.compile(b)));
  await encoderReady;
  const pixels = photoPixels(width, height);
  const jpeg = new Uint8Array(
    await encodeJpeg(new ImageData(pixels.data as Uint8ClampedArray<ArrayBuffer>, width, height), { quality: 85 }),
  );
  const exif = exifSegment(orientation);
  // SOI (2 bytes), then our APP1, then the rest of the encoder's file.
  const out = new Uint8Array(jpeg.length + exif.length);
  out.set(jpeg.subarray(0, 2), 0);
  out.set(exif, 2);
  out.set(jpeg.subarray(2), 2 + exif.length);
  return out;
}

export async function pngPicture(width = 300, height = 200): Promise<Uint8Array> {
  return encodePixels("png", photoPixels(width, height));
}

export async function webpPicture(width = 300, height = 200): Promise<Uint8Array> {
  return encodePixels("webp", photoPixels(width, height));
}

export const SVG_FILE = new TextEncoder().encode(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);

/** A PNG whose header declares 100,000 × 100,000 pixels (and nothing else): a decompression bomb. */
export function pngBombHeader(): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const v = new DataView(b.buffer);
  v.setUint32(16, 100_000);
  v.setUint32(20, 100_000);
  b.set([8, 6, 0, 0, 0], 24);
  return b;
}

/**
 * APP1 "Exif\0\0" + a big-endian TIFF block: IFD0 with Orientation (0x0112), ImageDescription
 * (0x010E, the marker text) and a pointer (0x8825) to a GPS IFD with GPSLatitudeRef "N" and
 * GPSLatitude 51° 30' 0".
 */
function exifSegment(orientation: number): Uint8Array {
  const tiff: number[] = [];
  const u16 = (v: number) => tiff.push((v >> 8) & 0xff, v & 0xff);
  const u32 = (v: number) => tiff.push((v >>> 24) & 0xff, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
  const text = `${GPS_MARKER}\0`;
  // Layout: header 8, IFD0 (2 + 3×12 + 4 = 42) at 8, GPS IFD (2 + 2×12 + 4 = 30) at 50,
  // description at 80, latitude rationals (24 bytes) after it.
  const ifd0 = 8;
  const gpsIfd = ifd0 + 42;
  const descAt = gpsIfd + 30;
  const latAt = descAt + text.length;
  tiff.push(0x4d, 0x4d);
  u16(42);
  u32(ifd0);
  u16(3);
  u16(0x010e);
  u16(2);
  u32(text.length);
  u32(descAt);
  u16(0x0112);
  u16(3);
  u32(1);
  u16(orientation);
  u16(0);
  u16(0x8825);
  u16(4);
  u32(1);
  u32(gpsIfd);
  u32(0);
  u16(2);
  u16(0x0001);
  u16(2);
  u32(2);
  tiff.push(0x4e, 0, 0, 0);
  u16(0x0002);
  u16(5);
  u32(3);
  u32(latAt);
  u32(0);
  for (const c of text) tiff.push(c.charCodeAt(0));
  for (const [n, d] of [
    [51, 1],
    [30, 1],
    [0, 1],
  ]) {
    u32(n!);
    u32(d!);
  }
  const body = [...new TextEncoder().encode("Exif\0\0"), ...tiff];
  const length = body.length + 2;
  return new Uint8Array([0xff, 0xe1, (length >> 8) & 0xff, length & 0xff, ...body]);
}

/**
 * A real, decodable PNG of `width` × `height` flat grey pixels (RGBA, 8 bits): every scanline
 * compresses to almost nothing, so 6000 × 6000 (144 MB once decoded) is a file of about 140 KB,
 * the shape of the probe's "103 KB PNG of 36 MP".
 */
export function flatPng(width: number, height: number): Uint8Array {
  const { deflateSync } = require("node:zlib") as typeof import("node:zlib");
  const row = Buffer.alloc(1 + width * 4, 0x80);
  row[0] = 0; // filter: none
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  const chunk = (type: string, data: Uint8Array) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(Bun.hash.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", new Uint8Array(0))]),
  );
}
