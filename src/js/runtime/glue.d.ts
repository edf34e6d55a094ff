// The Emscripten glue of each wasm module (embedlab-simd.js, embedlab-tokenizer-fallback.js, …), which the CMake
// build writes next to the entries in dist/: its default export makes the raw module. For tsc over src/js only, where
// the glue is not; the package's declarations never refer to it, so it does not ship.
declare module '*-simd.js' {
  const factory: (moduleArg?: object) => Promise<unknown>;
  export default factory;
}
declare module '*-fallback.js' {
  const factory: (moduleArg?: object) => Promise<unknown>;
  export default factory;
}
