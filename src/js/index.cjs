// CommonJS entry. require('embedlab') returns the very function the ES module exports as default (createEmbedLab),
// carrying every named export of the ES module: the same classes and functions (not copies), so instanceof agrees between code that
// imports and code that requires. Node loads the ES module synchronously here (require() of an ES module
// without top-level await: node >= 20.19, >= 22.12, Bun, Deno). An older node refuses that (ERR_REQUIRE_ESM);
// it then gets createEmbedLab and default alone, which load the ES module with import().
'use strict';

module.exports = require('./runtime/common_js_entry.cjs')(
  () => require('./index.js'),
  () => import('./index.js'),
  'createEmbedLab',
);
