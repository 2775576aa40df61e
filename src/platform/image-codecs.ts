/**
 * The image codecs: Squoosh's WebAssembly builds of mozjpeg, libwebp and the Rust png crate,
 * as packaged by jSquash (@jsquash/jpeg, /webp, /png). WebAssembly rather than native addons
 * (sharp) so the one compiled binary carries them and runs them unchanged on x64 and arm64.
 *
 * The .wasm files are embedded with `with { type: "file" }` imports: from source they are the
 * files in node_modules, in the compiled binary they are inside it (/$bunfs/…). Each is
 * compiled once, on first use; the packages' own loaders (which would fetch() the file next
 * to their script) are bypassed by handing them the compiled module.
 *
 * Decoders get a fresh instance per image: an instance's memory only ever grows, so reusing one
 * would keep the largest photo ever uploaded resident for the life of the process. Encoders only
 * see the small resized output, so one instance of each is kept.
 */
import jpegDecoderWasm from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm" with { type: "file" };
import mozjpegDecoder from "@jsquash/jpeg/codec/dec/mozjpeg_dec.js";
import pngWasm from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm" with { type: "file" };
import initPng, { decode as pngDecode, encode as pngEncode } from "@jsquash/png/codec/pkg/squoosh_png.js";
import webpDecoderWasm from "@jsquash/webp/codec/dec/webp_dec.wasm" with { type: "file" };
import webpDecoder from "@jsquash/webp/codec/dec/webp_dec.js";
import webpEncoderWasm from "@jsquash/webp/codec/enc/webp_enc.wasm" with { type: "file" };
import webpEncoder from "@jsquash/webp/codec/enc/webp_enc.js";
import { defaultOptions as webpDefaults } from "@jsquash/webp/meta.js";
import { initEmscriptenModule } from "@jsquash/webp/utils.js";
import type { RasterFormat } from "./image-header";
import type { Pixels } from "./image-resize";

const compiled = new Map<string, Promise<WebAssembly.Module>>();
function wasm(path: string): Promise<WebAssembly.Module> {
  let module = compiled.get(path);
  if (!module) {
    module = Bun.file(path)
      .arrayBuffer()
      .then((bytes) => WebAssembly.compile(bytes));
    compiled.set(path, module);
  }
  return module;
}

/** libjpeg's warnings ("Premature end of JPEG file") would go to stderr; the caller decides what a failure means. */
const QUIET = { print: () => {}, printErr: () => {} };

/** Decodes to RGBA. Throws when the data is damaged (the caller turns that into a 400). */
export async function decodePixels(format: RasterFormat, bytes: Uint8Array): Promise<Pixels> {
  let image: ImageData | null;
  if (format === "jpeg") {
    const codec = await initEmscriptenModule(mozjpegDecoder, await wasm(jpegDecoderWasm), QUIET);
    // true: apply the EXIF orientation, so a phone photo taken upright stays upright once the
    // EXIF block (with its location) is dropped.
    image = codec.decode(bytes, true);
  } else if (format === "webp") {
    const codec = await initEmscriptenModule(webpDecoder, await wasm(webpDecoderWasm), QUIET);
    image = codec.decode(bytes);
  } else {
    await pngReady();
    image = pngDecode(bytes);
  }
  if (!image || !image.width || !image.height) throw new Error(`${format} decoding failed`);
  return { data: image.data, width: image.width, height: image.height };
}

export interface EncodeOptions {
  /** WebP lossy quality, 0–100 (ignored for PNG and lossless WebP). */
  quality?: number;
  lossless?: boolean;
}

export async function encodePixels(format: "png" | "webp", pixels: Pixels, opts: EncodeOptions = {}): Promise<Uint8Array> {
  const rgba = new Uint8Array(pixels.data.buffer as ArrayBuffer, pixels.data.byteOffset, pixels.width * pixels.height * 4);
  if (format === "png") {
    await pngReady();
    return pngEncode(rgba, pixels.width, pixels.height, 8).slice();
  }
  webpEncoderInstance ??= wasm(webpEncoderWasm).then((module) => initEmscriptenModule(webpEncoder, module, QUIET));
  const codec = await webpEncoderInstance;
  const out = codec.encode(rgba, pixels.width, pixels.height, {
    ...webpDefaults,
    quality: opts.quality ?? 82,
    lossless: opts.lossless ? 1 : 0,
    // Encoding effort 0–6; 4 is libwebp's default and fast enough for avatar-sized output.
    method: 4,
  });
  if (!out) throw new Error("webp encoding failed");
  return out.slice();
}

let webpEncoderInstance: ReturnType<typeof initEmscriptenModule<import("@jsquash/webp/codec/enc/webp_enc.js").WebPModule>> | undefined;
let pngInstance: Promise<unknown> | undefined;
function pngReady(): Promise<unknown> {
  pngInstance ??= wasm(pngWasm).then((module) => initPng(module));
  return pngInstance;
}
