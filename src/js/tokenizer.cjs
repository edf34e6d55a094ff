// CommonJS entry of embedlab/tokenizer, as index.cjs is for embedlab: require('embedlab/tokenizer') returns
// createTokenizers, callable, carrying every named export of the ES module (the very same functions and
// classes). Where node cannot require an ES module (before 20.19 / 22.12: ERR_REQUIRE_ESM), it gets
// createTokenizers and default alone, which load the ES module with import().
'use strict';

module.exports = require('./runtime/common_js_entry.cjs')(
  () => require('./tokenizer.js'),
  () => import('./tokenizer.js'),
  'createTokenizers',
);
