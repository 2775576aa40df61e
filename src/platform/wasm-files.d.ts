// A WebAssembly file imported `with { type: "file" }` is its path (image-codecs.ts): on disk from
// source, inside the executable (/$bunfs/…) once compiled.
declare module "*.wasm" {
  const path: string;
  export default path;
}

// This one ships its own (wasm-bindgen) typings beside it, which describe the instance's exports,
// not a file import: the exact name takes precedence.
declare module "@jsquash/png/codec/pkg/squoosh_png_bg.wasm" {
  const path: string;
  export default path;
}
