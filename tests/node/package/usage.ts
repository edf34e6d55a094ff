// Uses every member declared in dist/index.d.ts. tests/node/package.test.mjs type-checks it against the
// installed tarball (strict) and runs the compiled output, so the declarations and the code stay in sync.
import createEmbedLab, {
  createEmbedLab as namedCreate,
  simdSupported,
  type AttentionResult,
  type Comparison,
  type ComposedSequence,
  type EmbedLab,
  type Kernels,
  type Limits,
  type PositionalEncoding,
  type SelfAttention,
  type TokenEmbedding,
} from 'embedlab';

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`usage check failed: ${what}`);
}

const lab: EmbedLab = await createEmbedLab({ simd: 'auto' });
const fallback: EmbedLab = await namedCreate({ simd: false });
check(typeof simdSupported() === 'boolean', 'simdSupported');
check(lab.version === '0.1.0' && fallback.flavour === 'fallback', 'version/flavour');
check(['WASM', 'EMU128'].includes(lab.simdTarget) && lab.flavour === (simdSupported() ? 'simd' : 'fallback'), 'target');
const limits: Limits = lab.limits;
check(limits.maxDim > 0 && limits.maxVocabSize > 0 && limits.maxSequenceLength > 0, 'limits');

{
  using embedding: TokenEmbedding = lab.tokenEmbedding({ vocabSize: 4, dim: 8, seed: 1, stddev: 1 });
  using sinusoidal: PositionalEncoding = lab.positionalEncoding('sinusoidal', { dim: 8, maxLength: 16, base: 10000 });
  using learned: PositionalEncoding = lab.positionalEncoding('learned', { dim: 8, maxLength: 16, seed: 2, stddev: 0.02 });
  using none: PositionalEncoding = lab.positionalEncoding('none', { dim: 8 });
  using attention: SelfAttention = lab.selfAttention({ dim: 8, seed: 3, causal: false });
  check(embedding.vocabSize === 4 && embedding.dim === 8 && !embedding.disposed, 'embedding members');
  check(embedding.lookup([1, 2]).length === 16 && embedding.table().length === 32, 'lookup/table');
  check(sinusoidal.kind === 'sinusoidal' && sinusoidal.dim === 8 && sinusoidal.maxLength === 16, 'encoding members');
  check(sinusoidal.base === 10000 && learned.base === undefined && none.kind === 'none', 'base');
  check(sinusoidal.table(2, 1).length === 16 && sinusoidal.row(0)[1] === 1, 'table/row');
  learned.setRow(0, new Float32Array(8).fill(0.5));
  check(learned.row(0)[0] === 0.5, 'setRow');
  check(attention.dim === 8 && attention.causal === false, 'attention members');
  const forward: AttentionResult = attention.forward(embedding.lookup([0, 1, 2]));
  check(forward.outputs.length === 24 && forward.weights.length === 9, 'forward');
  const composed: ComposedSequence = lab.compose([0, 1], { embedding, positional: sinusoidal, offset: 0 });
  check(composed.length === 2 && composed.dim === 8 && composed.tokenVectors.length === 16, 'compose');
  check(composed.positionVectors.length === 16 && composed.inputVectors.length === 16, 'compose parts');
  const comparison: Comparison = lab.compare([0, 1, 2], [2, 1, 0], { embedding, positional: learned, attention });
  check(comparison.rows === 3 && comparison.cols === 3 && comparison.dim === 8, 'compare shape');
  check(comparison.similarity.length === 9 && Math.abs(comparison.pooledCosine - 1) < 1e-6, 'compare input');
  const attended = comparison.attention;
  check(attended !== null && attended.outputsA.length === 24 && attended.outputsB.length === 24, 'attention outputs');
  check(attended !== null && attended.similarity.length === 9 && attended.pooledCosine < 1, 'attention pooled');
  check(lab.compare([0], [1], { embedding, attention: false }).attention === null, 'no attention');
  check(lab.compare([0], [1], { embedding, attention: { seed: 1, causal: true } }).attention !== null, 'attention options');
  check(lab.compare([0], [1], { embedding, attention: true }).attention !== null, 'attention true');
  embedding.dispose();
  check(embedding.disposed, 'disposed');
  none[Symbol.dispose]();
}

const kernels: Kernels = lab.kernels;
check(kernels.dot([1, 2], [3, 4]) === 11 && kernels.norm([3, 4]) === 5, 'dot/norm');
check(Math.abs(kernels.cosine([1, 0], [1, 1]) - Math.SQRT1_2) < 1e-6, 'cosine');
check(kernels.add([1], [2])[0] === 3 && kernels.scaledAdd(2, [1], [1])[0] === 3, 'add/scaledAdd');
check(kernels.cosineMatrix([1, 0, 0, 1], [1, 0], 2).length === 2, 'cosineMatrix');
check(kernels.sinCos([0]).length === 2, 'sinCos');
console.log('usage ok');
