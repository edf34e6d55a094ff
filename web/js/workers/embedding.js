// The embedding worker: holds the page's seeded token tables (vocabSize × dim, N(0, stddev), seed 1) and computes
// with them what sections 2, 3, 6 and 7 show. Drawing a table takes vocabSize × dim normals from one PRNG stream
// (no row can be drawn alone), half a second and more for o200k_base: here it never blocks the page.
import createEmbedLab from '../../embedlab/index.js';
import { serveRequests } from './requests.js';

const KEPT = 4; // tables kept: the sections use three (d = 16, 32, and section 6's d and scale) at a time
let labPromise = null;
/** The worker's one library instance, loaded by the first request that needs it. */
const loadLab = (simd) => (labPromise ??= createEmbedLab({ simd }));
const tables = new Map(); // "vocabSize/dim/stddev" → TokenEmbedding, oldest first
const handles = new Map(); // JSON of a positional encoding's or attention head's options → handle

function table(lab, { vocabSize, dim, stddev }) {
  const key = `${vocabSize}/${dim}/${stddev}`;
  let embedding = tables.get(key);
  if (embedding) {
    tables.delete(key); // re-inserted below: the most recently used
  } else {
    embedding = lab.tokenEmbedding({ vocabSize, dim, seed: 1, stddev });
    if (tables.size >= KEPT) {
      const [oldKey, old] = tables.entries().next().value;
      old.dispose();
      tables.delete(oldKey);
    }
  }
  tables.set(key, embedding);
  return embedding;
}

function cached(key, create) {
  if (!handles.has(key)) {
    handles.set(key, create());
  }
  return handles.get(key);
}

/** null, or {kind, options} of lab.positionalEncoding. */
const positionalOf = (lab, spec) =>
  spec === null ? null : cached(JSON.stringify(['pe', spec]), () => lab.positionalEncoding(spec.kind, spec.options));

/** null (no attention layer), or the options of lab.selfAttention. */
const attentionOf = (lab, spec) =>
  spec === null ? null : cached(JSON.stringify(['att', spec]), () => lab.selfAttention(spec));

const OPS = {
  lookup: (lab, embedding, { ids }) => embedding.lookup(ids),
  compose: (lab, embedding, { ids, positional }) =>
    lab.compose(ids, { embedding, positional: positionalOf(lab, positional) }),
  compare: (lab, embedding, { idsA, idsB, positional, attention }) =>
    lab.compare(idsA, idsB, {
      embedding,
      positional: positionalOf(lab, positional),
      attention: attentionOf(lab, attention),
    }),
};

serveRequests({
  /** Loads the library, so that the sections' first requests find it ready (main.js asks at once). */
  async start({ simd }) {
    await loadLab(simd);
    return null;
  },
  /** Draws tables ({specs: [{vocabSize, dim, stddev}]}) before any request needs them; `run` then finds them. */
  async prepare({ simd, specs }) {
    const lab = await loadLab(simd);
    specs.forEach((spec) => table(lab, spec));
    return null;
  },
  /** {table: {vocabSize, dim, stddev}, ops: [{op: 'lookup' | 'compose' | 'compare', ...}]} → their results. */
  async run({ simd, table: spec, ops }) {
    const lab = await loadLab(simd);
    const embedding = table(lab, spec);
    return ops.map((op) => {
      if (!Object.hasOwn(OPS, op.op)) {
        throw new TypeError(`op must be ${Object.keys(OPS).join(', ')}; got ${JSON.stringify(op.op)}`);
      }
      return OPS[op.op](lab, embedding, op);
    });
  },
});
