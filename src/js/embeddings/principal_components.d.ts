// Principal components of a table's rows (token or position embeddings), for 2-D plots.

/** Options of {@link EmbedLab.principalComponents}. */
export interface PrincipalComponentsOptions {
  /** How many components, in [1, cols]; default 2. */
  count?: number;
}

/** The leading principal components of a rows × cols table, largest variance first. */
export interface PrincipalComponents {
  /**
   * count × cols, row-major: unit directions, each with its largest-magnitude entry positive (so plots do not
   * flip between similar tables); all zeros for a direction the rows do not vary along.
   */
  components: Float64Array;
  /** count: the variance of the rows along each component (divided by rows). */
  variances: Float64Array;
  /** rows × count, row-major: each row's coordinates along the components, after subtracting the mean row. */
  projections: Float64Array;
}
