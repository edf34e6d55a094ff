// Shared by the CommonJS entries (index.cjs, tokenizer_entry.cjs): the callable module.exports carries every named
// export of the ES module it required, the very same objects, and stands for its entry function and default too.
'use strict';

module.exports = function exposeNamedExports(entry, esm, entryName) {
  // Not copied: the two names set below, and the __esModule mark node puts on a required ES module.
  const own = new Set([entryName, 'default', '__esModule']);
  for (const name of esm === null ? [] : Object.keys(esm).filter((key) => !own.has(key))) {
    // defineProperty: a function's own name and length would refuse a plain assignment
    Object.defineProperty(entry, name, { value: esm[name], enumerable: true, writable: false });
  }
  Object.defineProperty(entry, entryName, { value: entry, enumerable: true });
  Object.defineProperty(entry, 'default', { value: entry, enumerable: true });
};
