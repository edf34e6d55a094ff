// A bundled app that uses the installed package; the browser test reads #result.
import createEmbedLab from 'embedlab';

const result = document.getElementById('result');
try {
  const lab = await createEmbedLab();
  const embedding = lab.tokenEmbedding({ vocabSize: 3, dim: 16, seed: 1, stddev: 1 });
  const positional = lab.positionalEncoding('sinusoidal', { dim: 16, maxLength: 8 });
  const without = lab.compare([0, 1, 2], [2, 1, 0], { embedding }).attention.pooledCosine;
  const withPositions = lab.compare([0, 1, 2], [2, 1, 0], { embedding, positional }).attention.pooledCosine;
  // The vocabulary too: Vite copies vocab/*.emblvoc, which the package finds with new URL(..., import.meta.url).
  const tokenizer = await lab.getTokenizer('cl100k_base');
  const ids = Array.from(tokenizer.encode('dog bites man, 狗咬人 🐕'));
  // And the Hugging Face module, which the package starts on demand: Vite must have emitted its glue and wasm.
  const hf = await lab.tokenizerFromHuggingFace({
    model: { type: 'BPE', vocab: { a: 0, b: 1, ab: 2, Ġ: 3, Ġab: 4 }, merges: ['a b', 'Ġ ab'] },
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
  });
  const hfIds = Array.from(hf.encode('ab ab'));
  result.textContent = JSON.stringify({ target: lab.simdTarget, without, withPositions, ids, hfIds });
} catch (error) {
  result.textContent = `error: ${error.message}`;
}
