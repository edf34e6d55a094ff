// CommonJS entry: the same API, loaded through the ES module.
'use strict';

function createEmbedLab(options) {
  return import('./index.js').then((esm) => esm.createEmbedLab(options));
}

module.exports = createEmbedLab;
module.exports.createEmbedLab = createEmbedLab;
module.exports.default = createEmbedLab;
