// Prepended to each Emscripten ES module. In node, the generated loader expects CommonJS `require` and
// `__dirname`, which an ES module lacks; define them from import.meta.url. Synchronous on purpose: a
// top-level await would break require() of the package.
var require, __dirname;
// Only where process.getBuiltinModule exists (node >= 20.16, Bun, Deno): elsewhere (workerd's process shim) the
// glue is given the compiled module and needs neither.
if (
  typeof process === 'object' &&
  process.versions &&
  process.versions.node &&
  typeof process.getBuiltinModule === 'function'
) {
  require = process.getBuiltinModule('module').createRequire(import.meta.url);
  __dirname = require('path').dirname(require('url').fileURLToPath(import.meta.url));
}
