// Shared by the CommonJS entries (index.cjs, tokenizer.cjs): what require() of an entry returns. Where node can
// require the ES module, that is the very function of its default export (createEmbedLab, createTokenizers),
// carrying every named export as a property: the same objects, so instanceof and === agree between code that
// imports and code that requires. Where it cannot (ERR_REQUIRE_ESM before node 20.19 / 22.12), a function of the
// same name that loads the ES module with import(), with itself as its entry name and default.
'use strict';

function define(target, name, value) {
  // defineProperty: a function's own name and length would refuse a plain assignment
  Object.defineProperty(target, name, { value, enumerable: true, writable: false });
}

// requireEsm and importEsm: the entry's require('./x.js') and import('./x.js'), written in the entry so that
// bundlers see them.
module.exports = function commonJsEntry(requireEsm, importEsm, entryName) {
  let esm = null;
  try {
    esm = requireEsm();
  } catch (error) {
    if (error?.code !== 'ERR_REQUIRE_ESM') {
      throw error;
    }
  }
  if (esm === null) {
    const entry = {
      [entryName]: (options) => importEsm().then((module) => module[entryName](options)),
    }[entryName];
    define(entry, entryName, entry);
    define(entry, 'default', entry);
    return entry;
  }
  const entry = esm.default;
  // Not copied: the default itself, and the __esModule mark node puts on a required ES module.
  for (const name of Object.keys(esm).filter((key) => key !== 'default' && key !== '__esModule')) {
    if (!Object.hasOwn(entry, name)) {
      define(entry, name, esm[name]);
    }
  }
  if (!Object.hasOwn(entry, 'default')) {
    define(entry, 'default', entry);
  }
  return entry;
};
