// The one small program every runtime test runs (node, Bun, Deno, workerd, a browser's Web Worker): import
// the package, createEmbedLab, tokenize with cl100k_base, train a tiny model 2 steps and read its logits, and build a
// tiny Hugging Face tokenizer (which starts the Hugging Face module, fetched or read on demand).
// It reports what it saw; the test (in node 20) compares it with tiktoken's ids and node 20's own run.
// Plain ESM with no runtime-specific API, so the same file loads everywhere.

/** Mixed text: ASCII punctuation, curly quotes, a non-BMP emoji, CJK, runs of spaces and newlines. */
export const SENTENCE =
  'Positional encodings tell a transformer where each token sits: “dog bites man” ≠ “man bites dog”. 🐕 狗咬人\n\n  end';

export const MODEL_CONFIG = { vocabSize: 64, contextLength: 8, channels: 16, layers: 1, heads: 2, seed: 7 };

// A byte-level tokenizer.json small enough to write here: "ab ab" -> [2, 4] (Tokenizers.js' ids: hf_api.test.mjs).
const HF_JSON = {
  model: { type: 'BPE', vocab: { a: 0, b: 1, ab: 2, Ġ: 3, Ġab: 4 }, merges: ['a b', 'Ġ ab'] },
  pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
};

const PROCESS_EVENTS = ['uncaughtException', 'unhandledRejection', 'exit', 'beforeExit', 'warning'];

// Listener counts where the runtime has node's process object (node, Bun, Deno 2); null elsewhere.
function processListeners() {
  const proc = globalThis.process;
  if (typeof proc !== 'object' || proc === null || typeof proc.listenerCount !== 'function') {
    return null;
  }
  return Object.fromEntries(PROCESS_EVENTS.map((event) => [event, proc.listenerCount(event)]));
}

function runtimeName() {
  if (typeof globalThis.Bun === 'object') {
    return `bun ${globalThis.Bun.version}`;
  }
  if (typeof globalThis.Deno === 'object') {
    return `deno ${globalThis.Deno.version.deno}`;
  }
  if (globalThis.navigator?.userAgent === 'Cloudflare-Workers') {
    return 'workerd';
  }
  if (typeof globalThis.process?.versions?.node === 'string') {
    return `node ${globalThis.process.versions.node}`;
  }
  return globalThis.navigator?.userAgent ?? 'unknown';
}

/**
 * importPackage: () => import(the package's ESM entry). options.lab goes to createEmbedLab, options.tokenizer to
 * getTokenizer, options.hf to tokenizerFromHuggingFace. Resolves to a plain JSON-able report.
 */
export async function smoke(importPackage, options = {}) {
  const globalsBefore = new Set(Object.getOwnPropertyNames(globalThis));
  const listenersBefore = processListeners();
  const { createEmbedLab } = await importPackage();
  const lab = await createEmbedLab(options.lab);
  const tokenizer = await lab.getTokenizer('cl100k_base', options.tokenizer);
  const ids = Array.from(tokenizer.encode(SENTENCE));
  const decoded = tokenizer.decode(ids);
  tokenizer.dispose();

  // Next-token prediction on the sentence's first ids, folded into the tiny vocabulary.
  const sequence = ids.slice(0, MODEL_CONFIG.contextLength + 1).map((id) => id % MODEL_CONFIG.vocabSize);
  const batch = { ids: [sequence.slice(0, -1)], targets: [sequence.slice(1)] };
  const model = lab.createModel(MODEL_CONFIG);
  const { losses } = await model.train({ steps: 2, batches: () => batch });
  const lossAfter = model.evaluate(batch);
  const logits = Array.from(model.logits({ ids: batch.ids }));
  model.dispose();

  const hf = await lab.tokenizerFromHuggingFace(HF_JSON, options.hf);
  const hfIds = Array.from(hf.encode('ab ab'));
  hf.dispose();

  return {
    runtime: runtimeName(),
    flavour: lab.flavour,
    simdTarget: lab.simdTarget,
    finalizationRegistry: typeof globalThis.FinalizationRegistry, // the package's safety net, where there is one
    ids,
    decoded,
    losses,
    lossAfter,
    logits,
    hfIds,
    listenersBefore,
    listenersAfter: processListeners(),
    newGlobals: Object.getOwnPropertyNames(globalThis).filter((name) => !globalsBefore.has(name)),
  };
}
