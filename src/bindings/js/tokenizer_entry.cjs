// CommonJS entry of embedlab/tokenizer, as index.cjs is for embedlab: require('embedlab/tokenizer') returns
// createTokenizers, callable, carrying every named export of the ES module (the very same functions and
// classes). Where node cannot require an ES module (before 20.19 / 22.12: ERR_REQUIRE_ESM), it gets
// createTokenizers and default alone, which load the ES module with import().
'use strict';

let esm = null;
try {
  esm = require('./tokenizer_entry.js');
} catch (error) {
  if (error?.code !== 'ERR_REQUIRE_ESM') {
    throw error;
  }
}

function createTokenizers(options) {
  return esm !== null
    ? esm.createTokenizers(options)
    : import('./tokenizer_entry.js').then((m) => m.createTokenizers(options));
}

module.exports = createTokenizers;
// Not copied: the two names set below, and the __esModule mark node puts on a required ES module.
const own = new Set(['createTokenizers', 'default', '__esModule']);
for (const name of esm === null ? [] : Object.keys(esm).filter((key) => !own.has(key))) {
  // defineProperty: a function's own name and length would refuse a plain assignment
  Object.defineProperty(createTokenizers, name, { value: esm[name], enumerable: true, writable: false });
}
Object.defineProperty(createTokenizers, 'createTokenizers', { value: createTokenizers, enumerable: true });
Object.defineProperty(createTokenizers, 'default', { value: createTokenizers, enumerable: true });
