// Uses every member declared in dist/index.d.ts. tests/node/package.test.mjs type-checks it against the
// installed tarball (strict) and runs the compiled output, so the declarations and the code stay in sync.
import createEmbedLab, {
  createEmbedLab as namedCreate,
  simdSupported,
  type AttentionResult,
  type Comparison,
  type CorpusBatches,
  type ComposedSequence,
  type EmbedLab,
  type Kernels,
  type Limits,
  type LongContextDefaults,
  type LongContextExperimentResult,
  type LongContextRunResult,
  type LongContextSequence,
  type Model,
  type ModelDefaults,
  type PatternName,
  type PositionScheme,
  type PrincipalComponents,
  type PrincipalComponentsOptions,
  type RelativePositionBucketsOptions,
  type RopeLayout,
  type RopeRotateOptions,
  type SafetensorsFile,
  type TensorInfo,
  type TrainStepResult,
  type TrainedWordVectors,
  type WordVectorsProgress,
  type TransformerConfig,
  type TransformerParameterCount,
  type TokenizerTrainingProgress,
  type WordVectors,
  type RowCosine,
  type PositionalEncoding,
  type SelfAttention,
  type StreamingDecoder,
  type TokenEmbedding,
  type HfTokenSpan,
  type HfTokenizer,
  type Tokenizer,
  type TokenSpan,
  type WindowBatch,
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
check(limits.maxSeed === 2 ** 53, 'limits.maxSeed');
const modelDefaults: ModelDefaults = lab.modelDefaults;
check(modelDefaults.heads === 2 && modelDefaults.optimizer.beta1 === 0.9, 'modelDefaults');
const patterns: readonly PatternName[] = lab.patternNames;
check(patterns.join() === 'gpt2,cl100k,o200k', 'patternNames');
const schemes: readonly PositionScheme[] = lab.positionSchemes;
check(schemes.join() === 'learned,sinusoidal,rope,alibi,t5,none', 'positionSchemes');
const layouts: readonly RopeLayout[] = lab.ropeLayouts;
check(layouts.join() === 'interleaved,rotate_half', 'ropeLayouts');

{
  using embedding: TokenEmbedding = lab.tokenEmbedding({ vocabSize: 4, dim: 8, seed: 1, stddev: 1 });
  using sinusoidal: PositionalEncoding = lab.positionalEncoding('sinusoidal', { dim: 8, maxLength: 16, base: 10000 });
  using learned: PositionalEncoding = lab.positionalEncoding('learned', {
    dim: 8,
    maxLength: 16,
    seed: 2,
    stddev: 0.02,
  });
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
  check(
    lab.compare([0], [1], { embedding, attention: { seed: 1, causal: true } }).attention !== null,
    'attention options',
  );
  check(lab.compare([0], [1], { embedding, attention: true }).attention !== null, 'attention true');
  embedding.dispose();
  check(embedding.disposed, 'disposed');
  none[Symbol.dispose]();
}

{
  check(lab.tokenizerNames.includes('cl100k_base'), 'tokenizerNames');
  using tokenizer: Tokenizer = await lab.getTokenizer('cl100k_base');
  check(
    tokenizer.name === 'cl100k_base' && tokenizer.pattern === 'cl100k' && tokenizer.vocabSize === 100277,
    'tokenizer members',
  );
  check(
    tokenizer.specialTokens.some((token) => token.text === '<|endoftext|>' && token.id === 100257),
    'specialTokens',
  );
  const ids: Uint32Array = tokenizer.encode('hello <|endoftext|>', { allowedSpecial: 'all', disallowedSpecial: 'all' });
  check(ids.length === 3 && ids[2] === 100257, 'encode');
  check(tokenizer.encodeOrdinary('hello').length === 1 && tokenizer.count('hello world') === 2, 'encodeOrdinary/count');
  const spans: TokenSpan[] = tokenizer.tokens('héllo');
  check(
    spans.length > 0 &&
      spans[0].start === 0 &&
      spans.at(-1)!.end === 6 &&
      spans[0].bytes.length > 0 &&
      typeof spans[0].text === 'string',
    'tokens',
  );
  check(tokenizer.decode(ids) === 'hello <|endoftext|>' && tokenizer.decodeBytes([15339]).length === 5, 'decode');
  check(tokenizer.tokenBytes(15339).length === 5, 'tokenBytes');
  check(
    tokenizer.encode('hello <|endoftext|>', 'all').join() === ids.join() &&
      tokenizer.count('<|endoftext|>', ['<|endoftext|>'], []) === 1,
    'positional allowedSpecial',
  );
  check(lab.encodingNameForModel('gpt-4o') === 'o200k_base', 'encodingNameForModel');
  using forModel: Tokenizer = await lab.encodingForModel('gpt-4');
  using chatml: Tokenizer = await lab.getTokenizer('cl100k_base', { specialTokens: { '<|im_start|>': 100264 } });
  check(forModel.name === 'cl100k_base' && chatml.encode('<|im_start|>', 'all')[0] === 100264, 'encodingForModel');
  const noVocabulary = lab.getTokenizer('cl100k_base', { vocabulary: new Uint8Array(0) }); // the caller's bytes
  check(await noVocabulary.then(() => false, Boolean), 'options.vocabulary'); // no ranks: refused
  const decoder: StreamingDecoder = tokenizer.decoder();
  check(decoder.write(tokenizer.encode('日本')) === '日本' && decoder.end() === '', 'decoder');
  const chunks: Uint32Array[] = [];
  const source = ['Hello', new TextEncoder().encode(' world')];
  for await (const chunk of tokenizer.encodeStream(source, { allowedSpecial: 'all', chunkSize: 4 })) {
    chunks.push(chunk);
  }
  check(chunks.flatMap((chunk) => Array.from(chunk)).join() === tokenizer.encode('Hello world').join(), 'encodeStream');
  const bytes = new ReadableStream<Uint8Array>({
    start: (controller) => {
      controller.enqueue(new TextEncoder().encode('Hello world'));
      controller.close();
    },
  });
  check((await tokenizer.countStream(bytes)) === 2, 'countStream');
  let streamedText = '';
  for await (const piece of tokenizer.decodeStream([tokenizer.encode('日本'), 15339])) {
    streamedText += piece;
  }
  check(streamedText === '日本hello', 'decodeStream');
  const within: false | number = tokenizer.isWithinTokenLimit('Hello world', 5);
  check(within === 2 && tokenizer.isWithinTokenLimit('Hello world', 1) === false, 'isWithinTokenLimit');
}

{
  using model: Model = lab.createModel({
    vocabSize: 8,
    contextLength: 4,
    channels: 8,
    layers: 1,
    heads: 2,
    positions: 'rope',
    ropeLayout: 'rotate_half',
    ropeBase: 10000,
    causal: true,
    embeddingScale: Math.sqrt(8),
    seed: 1,
    optimizer: { learningRate: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0, maxGradNorm: 1 },
  });
  check(
    model.config.positions === 'rope' &&
      model.config.embeddingScale === Math.sqrt(8) &&
      model.config.optimizer.learningRate > 0 &&
      model.parameterCount > 0,
    'model config',
  );
  const batch = {
    ids: [
      [1, 2, 3],
      [4, 5, 6],
    ],
    targets: [
      [2, 3, 4],
      [5, 6, 7],
    ],
  };
  const first: TrainStepResult = model.trainStep(batch);
  check(first.step === 1 && first.loss > 0 && first.gradientNorm > 0 && model.step === 1, 'trainStep');
  const trained = await model.train({
    steps: 5,
    batches: () => batch,
    onProgress: () => {},
    signal: new AbortController().signal,
  });
  check(trained.losses.length === 5 && !trained.aborted && trained.losses[4] < first.loss, 'train');
  check(
    model.evaluate({ ids: [1, 2, 3, 4, 5, 6], targets: [2, 3, 4, 5, 6, 7], batch: 2, length: 3 }) > 0,
    'evaluate flat',
  );
  check(
    model.logits({ ids: [[1, 2]] }).length === 16 && model.tokenEmbeddings().length === 64,
    'logits/tokenEmbeddings',
  );
  check(model.positionEmbeddings() === null && model.maxLength >= 4, 'positionEmbeddings/maxLength');
  check(model.hiddenStates([1, 2]).length === 2, 'hiddenStates');
  model.setLearningRate(1e-3);
  const bytes: Uint8Array = model.save();
  using loaded: Model = lab.loadModel(bytes);
  check(loaded.step === model.step && loaded.evaluate(batch) === model.evaluate(batch), 'loadModel');
  using file: SafetensorsFile = await lab.readSafetensors(new Blob([new Uint8Array(bytes)]));
  const wte: TensorInfo | undefined = file.tensors.find((tensor) => tensor.name === 'wte.weight');
  check(
    wte !== undefined && wte.dtype === 'F32' && wte.shape.join() === '8,8' && wte.offset > 0 && wte.byteLength === 256,
    'tensors',
  );
  check(file.metadata.positions === 'rope' && (await file.get('wte.weight')).length === 64, 'metadata/get');
}

{
  const seen: TokenizerTrainingProgress[] = [];
  using trained: Tokenizer = await lab.trainTokenizer('low lower lowest '.repeat(50), {
    vocabSize: 260,
    pattern: 'gpt2',
    specialTokens: ['<|end|>'],
    name: 'mine',
    progressInterval: 1,
    onProgress: (progress) => void seen.push(progress),
    signal: new AbortController().signal,
  });
  check(
    seen.length > 0 && seen[0].merges === 1 && seen[0].wanted === 4 && seen[0].token.length === 2 && seen[0].count > 0,
    'progress',
  );
  check(trained.name === 'mine' && trained.merges.length === 4 && trained.merges[0].id === 256, 'merges');
  using reloaded: Tokenizer = await lab.loadTokenizer(trained.save({ binary: true }));
  check(reloaded.encode('lowest').join() === trained.encode('lowest').join(), 'save/loadTokenizer');
  // A saved tokenizer without its header line is a plain .tiktoken file.
  const tiktokenText = new TextDecoder().decode(trained.save()).split('\n').slice(1).join('\n');
  using fromFile: Tokenizer = lab.tokenizerFromVocabulary({
    tiktoken: tiktokenText,
    pattern: 'gpt2',
    specialTokens: { '<|end|>': 260 },
    name: 'plain',
  });
  check(
    fromFile.encode('lowest').join() === trained.encode('lowest').join() && fromFile.name === 'plain',
    'tokenizerFromVocabulary',
  );
  // A Hugging Face tokenizer.json: a hand-made one (no pre-tokenizer: the text is one BPE piece).
  const hfJson = {
    model: { type: 'BPE', vocab: { a: 0, b: 1, ab: 2 }, merges: ['a b'] },
    added_tokens: [{ id: 3, content: '<s>', special: true, normalized: false, lstrip: false, rstrip: false }],
  };
  using hf: HfTokenizer = await lab.tokenizerFromHuggingFace(JSON.stringify(hfJson), { name: 'tiny', config: {} });
  const hfSpans: HfTokenSpan[] = hf.tokens('ab<s>a', { addSpecialTokens: false, splitSpecialTokens: false });
  check(hfSpans.map((t) => `${t.token}:${t.start}-${t.end}`).join() === 'ab:0-2,<s>:2-5,a:5-6', 'hf tokens');
  check(hf.encodeOrdinary('ab').join() === '2' && hf.tokenString(3) === '<s>' && hf.addedTokens[0].special, 'hf');
  check(hf.decode([2], { skipSpecialTokens: true, cleanUpTokenizationSpaces: false }) === 'ab', 'hf decode');
  check((await hf.countStream(['a', 'bab'], { addSpecialTokens: false, chunkSize: 2 })) === 2, 'hf countStream');
  using hfLoaded: Tokenizer = await lab.loadTokenizer(hf.save({ binary: true }));
  check(hfLoaded.count('abab') === 2 && hfLoaded.name === 'tiny', 'hf save/loadTokenizer');
  const memory = lab.memory();
  check(memory.heapBytes >= memory.allocatedBytes && memory.allocatedBytes > 0, 'memory');
}

{
  const glove: WordVectors = await lab.loadWordVectors(new Blob(['king 1 0 0\nqueen 0.9 0.1 0\napple 0 0 1\n']));
  check(
    glove.words.length === 3 && glove.dim === 3 && glove.vectors.length === 9 && glove.indexOf('apple') === 2,
    'glove members',
  );
  check(glove.vector('queen')?.[0] === Math.fround(0.9) && glove.vector('pear') === undefined, 'glove vector');
  check(glove.nearest('king', 1)[0].word === 'queen' && glove.nearest([0, 0, 1], 1)[0].cosine > 0.99, 'glove nearest');
}

{
  const progress: WordVectorsProgress[] = [];
  const trained: TrainedWordVectors = await lab.trainWordVectors({
    ids: new Uint8Array([0, 1, 2, 0, 1, 3, 0, 1, 2]),
    vocabSize: 4,
    dim: 8,
    window: 2,
    epochs: 3,
    xMax: 10,
    alpha: 0.75,
    learningRate: 0.05,
    seed: 1,
    onProgress: (p) => progress.push(p),
    signal: new AbortController().signal,
  });
  check(
    trained.vectors.length === 32 &&
      trained.words.length === 32 &&
      trained.contexts.length === 32 &&
      trained.wordBiases.length === 4 &&
      trained.contextBiases.length === 4 &&
      trained.losses.length === 3 &&
      !trained.aborted &&
      progress.map((p) => `${p.epoch}/${p.epochs}`).join() === '1/3,2/3,3/3' &&
      progress[2].loss === trained.losses[2],
    'trainWordVectors',
  );
  const { rows, cols, values } = trained.cooccurrences;
  check(rows.length === values.length && cols[0] === 1 && rows[0] === 0 && values[0] > 0, 'cooccurrences');
  using tiny: Model = lab.createModel({ vocabSize: 4, channels: 8, layers: 1, heads: 2 });
  tiny.setTensor('wte.weight', trained.vectors);
  const wteValues: Float32Array = tiny.tensor('wte.weight');
  check(wteValues.join() === trained.vectors.join(), 'setTensor/tensor');
}

{
  const uniforms: Float64Array = lab.randomUniform(3, { seed: 7 });
  check(uniforms.length === 3 && uniforms.every((u) => u >= 0 && u < 1), 'randomUniform');
  const tokens = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const batches: CorpusBatches = lab.corpusBatches(tokens, { batch: 2, length: 4, seed: 1 });
  const batch: WindowBatch = batches.next();
  check(batches.batch === 2 && batches.length === 4 && batch.ids[0] + 1 === batch.targets[0], 'corpusBatches');
  batches.dispose();
  const windows: WindowBatch = lab.evenlySpacedWindows(tokens, { batch: 2, length: 4 });
  check(windows.ids.length === 8 && windows.targets[7] === 6, 'evenlySpacedWindows');
  const nearest: RowCosine[] = lab.nearestRows([1, 0, 0, 1, 1, 0.1], 2, 0, { k: 1, skip: [1] });
  check(nearest.length === 1 && nearest[0].row === 2 && nearest[0].cosine > 0.99, 'nearestRows');
  const ropeOptions: RopeRotateOptions = { base: 10000, layout: 'rotate_half' };
  const turned: Float32Array = lab.ropeRotate([1, 0, 0, 1], 0, ropeOptions);
  check(turned.length === 4 && turned[0] === 1 && turned[3] === 1, 'ropeRotate');
  check(Math.abs(lab.ropeRotate([1, 0], 1)[1] - Math.sin(1)) < 1e-6, 'ropeRotate default options');
  const slopes: Float32Array = lab.alibiSlopes(2);
  check(slopes[0] === 1 / 16 && slopes[1] === 1 / 256, 'alibiSlopes');
  const gpt2Small: TransformerConfig = { vocabSize: 50257, channels: 768, layers: 12, heads: 12, positionRows: 1024 };
  const counted: TransformerParameterCount = lab.transformerParameterCount(gpt2Small);
  check(
    counted.total === 124439808 && counted.tokenTableBytes.bfloat16 === 2 * 50257 * 768,
    'transformerParameterCount',
  );
  const bucketOptions: RelativePositionBucketsOptions = {
    length: 3,
    numBuckets: 32,
    maxDistance: 128,
    bidirectional: true,
  };
  const buckets: Int32Array = lab.relativePositionBuckets(bucketOptions);
  check(buckets.join() === '0,17,18,1,0,17,2,1,0', 'relativePositionBuckets');
  using t5: Model = lab.createModel({ vocabSize: 8, channels: 8, positions: 't5', t5NumBuckets: 8, t5MaxDistance: 16 });
  check(t5.config.t5NumBuckets === 8 && t5.config.t5MaxDistance === 16, 't5 model config');
  const pcaOptions: PrincipalComponentsOptions = { count: 1 };
  const pca: PrincipalComponents = lab.principalComponents([0, 0, 2, 2, 4, 4], 3, 2, pcaOptions);
  check(pca.components.length === 2 && Math.abs(pca.components[0] - Math.SQRT1_2) < 1e-12, 'pca components');
  check(Math.abs(pca.variances[0] - 16 / 3) < 1e-12 && pca.projections.length === 3, 'pca variances/projections');
  check(lab.principalComponents([1, 2, 3, 5], 2, 2).projections.length === 4, 'pca default count');
  const gloveLines: string = lab.wordVectorsText(['dog', 'cat'], [0.5, -1, 2, 0.1], 2);
  check(gloveLines === 'dog 0.5 -1\ncat 2 0.100000001\n', 'wordVectorsText');
}

{
  // The long-context experiment: one tiny run, its readings, and the task generators.
  const passkey: LongContextSequence & { text: string } = lab.passkeySample({
    digits: 2,
    length: 24,
    depth: 0.5,
    seed: 7,
  });
  check(passkey.keyPosition === 10 && passkey.text.includes('KEY 9 4'), 'passkeySample');
  const recall: LongContextSequence = lab.recallSample({ keys: 8, values: 4, length: 12, depth: 0.25, seed: 7 });
  check(recall.targets[11] === 10, 'recallSample');
  check(lab.longContextSchemes.includes('rope_yarn'), 'longContextSchemes');
  const defaults: LongContextDefaults = lab.longContextDefaults;
  check(
    defaults.tasks.includes(defaults.task) && defaults.steps > 0 && defaults.seeds.length > 0,
    'longContextDefaults',
  );
  const tiny = { trainLength: 8, factors: [1, 2], steps: 1, fineTuneSteps: 1, channels: 8, layers: 1, heads: 2 };
  const run: LongContextRunResult = await lab.longContextRun({ ...tiny, scheme: 'learned', evalRows: 1 });
  check(run.readings.length === 3 && !run.readings[1].available && run.readings[1].reason !== null, 'longContextRun');
  const experiment: LongContextExperimentResult = await lab.longContextExperiment({
    ...tiny,
    schemes: ['none'],
    seeds: [0, 1],
    evalRows: 1,
    onProgress: ({ phase }) => check(phase.length > 0, 'longContext progress'),
  });
  check(experiment.summary?.[0].accuracy !== undefined && experiment.runs.length === 2, 'longContextExperiment');
}

const kernels: Kernels = lab.kernels;
check(kernels.dot([1, 2], [3, 4]) === 11 && kernels.norm([3, 4]) === 5, 'dot/norm');
check(Math.abs(kernels.cosine([1, 0], [1, 1]) - Math.SQRT1_2) < 1e-6, 'cosine');
check(kernels.add([1], [2])[0] === 3 && kernels.scaledAdd(2, [1], [1])[0] === 3, 'add/scaledAdd');
check(kernels.cosineMatrix([1, 0, 0, 1], [1, 0], 2).length === 2, 'cosineMatrix');
check(kernels.sinCos([0]).length === 2, 'sinCos');
console.log('usage ok');
