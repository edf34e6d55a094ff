// Nearest neighbours by cosine among the rows of any table (token embeddings, word vectors).

/** Options of {@link EmbedLab.nearestRows}. */
export interface NearestRowsOptions {
  /** How many rows to return (at least 1); default 10. Fewer come back when fewer rows remain. */
  k?: number;
  /** Row indices to leave out (for example rows without a label). */
  skip?: ArrayLike<number>;
}

/** One neighbour: its row in the table and its cosine to the query. */
export interface RowCosine {
  row: number;
  cosine: number;
}
