// The parameter count of a published transformer configuration: what its token tables cost at scale.

/**
 * A decoder-only transformer's configuration, with GPT-2's conventions as defaults. Llama 3 8B:
 * `{vocabSize: 128256, channels: 4096, layers: 32, heads: 32, kvHeads: 8, ffnHidden: 14336, gatedMlp: true,
 * tiedOutput: false, biases: false, norm: 'rmsnorm'}`.
 */
export interface TransformerConfig {
  /** V: rows of the token table, in [1, 2^24]. */
  vocabSize: number;
  /** d: the model width, in [1, 2^16]. */
  channels: number;
  /** In [1, 1024]. */
  layers: number;
  /** Query heads, in [1, channels]; must divide channels. */
  heads: number;
  /** Key/value heads (grouped-query attention), in [1, heads], dividing heads; default heads. */
  kvHeads?: number;
  /** The MLP's inner width F, in [1, 2^18]; or give mlpRatio. */
  ffnHidden?: number;
  /** F = mlpRatio × channels (must be whole); default 4 (GPT-2). Not with ffnHidden. */
  mlpRatio?: number;
  /** true: a gated MLP (SwiGLU: gate, up and down, 3dF); false (default): up and down, 2dF. */
  gatedMlp?: boolean;
  /** true (default): the output head is the token table (GPT-2); false: a second V × d table (Llama 3). */
  tiedOutput?: boolean;
  /** true (default): every attention and MLP projection has a bias (GPT-2); false: none (Llama). Never the head. */
  biases?: boolean;
  /** 'layernorm' (default: scale and shift, 2d per norm) or 'rmsnorm' (scale only, d); 2 per layer and a final one. */
  norm?: 'layernorm' | 'rmsnorm';
  /** Rows of a learned position table (GPT-2: 1024), in [0, 2^24]; default 0 (RoPE, ALiBi, sinusoidal, NoPE). */
  positionRows?: number;
}

/** Bytes at two precisions. */
export interface ParameterBytes {
  float32: number;
  bfloat16: number;
}

/** Result of {@link EmbedLab.transformerParameterCount}: exact counts (every one below 2^53). */
export interface TransformerParameterCount {
  /** V × d. */
  tokenEmbedding: number;
  /** V × d untied, 0 tied. */
  outputHead: number;
  /** positionRows × d. */
  positionTable: number;
  /** Every layer's q, k, v and output projections (with their biases). */
  attention: number;
  /** Every layer's MLP (with its biases). */
  mlp: number;
  /** Two norms per layer and the final one. */
  norms: number;
  total: number;
  /** tokenEmbedding + outputHead. */
  tokenTables: number;
  /** tokenTables / total. */
  tokenTableShare: number;
  /** The whole model's weights: 4 bytes per parameter (float32), 2 (bfloat16). */
  totalBytes: ParameterBytes;
  /** The token tables' weights alone. */
  tokenTableBytes: ParameterBytes;
}
