// require() of the installed package, as a CommonJS user would.
const createEmbedLab = require('embedlab');
const { createEmbedLab: named } = require('embedlab');
if (named !== createEmbedLab) {
  throw new Error('named and default CommonJS exports differ');
}
createEmbedLab().then((lab) => {
  const embedding = lab.tokenEmbedding({ vocabSize: 3, dim: 4, seed: 1 });
  if (embedding.lookup([2]).length !== 4) {
    throw new Error('lookup through require() failed');
  }
  embedding.dispose();
  console.log(`require ok ${lab.simdTarget}`);
});
