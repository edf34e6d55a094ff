// Argument checks of the JS layer: types and integer-ness, with messages that name the argument and the
// allowed range. Ranges are checked again in C++, which owns them.

/**
 * @param {unknown} value
 * @returns {string}
 */
export function describe(value) {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return `an array of length ${value.length}`;
  }
  if (typeof value === 'string') {
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  }
  if (typeof value === 'object') {
    return `an object (${value.constructor?.name ?? 'Object'})`;
  }
  return String(value);
}

/**
 * @param {string} name
 * @param {unknown} value
 * @param {number} min
 * @param {number} max
 * @returns {number}
 */
export function requireInteger(name, value, min, max) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be an integer in [${min}, ${max}], got ${describe(value)}`);
  }
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer in [${min}, ${max}], got ${describe(value)}`);
  }
  return value;
}

/**
 * @param {string} name
 * @param {unknown} value
 * @param {number} min
 * @param {number} max
 * @returns {number}
 */
export function requireNumber(name, value, min, max) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a finite number in [${min}, ${max}], got ${describe(value)}`);
  }
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a finite number in [${min}, ${max}], got ${describe(value)}`);
  }
  return value;
}

/**
 * An integer whose range the C++ core checks (and names in its message): only what the core cannot see, the JS
 * type and integer-ness (Embind would coerce a string to NaN and truncate 1.5).
 * @param {string} name
 * @param {unknown} value
 */
export function requireIntegerValue(name, value) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be an integer, got ${describe(value)}`);
  }
  if (!Number.isInteger(value)) {
    throw new RangeError(`${name} must be an integer, got ${describe(value)}`);
  }
}

/**
 * A number whose range the C++ core checks (NaN and infinities included): only the JS type.
 * @param {string} name
 * @param {unknown} value
 */
export function requireNumberValue(name, value) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  }
}

/**
 * @param {string} name
 * @param {unknown} value
 * @returns {boolean}
 */
export function requireBoolean(name, value) {
  if (typeof value !== 'boolean') {
    throw new TypeError(`${name} must be true or false, got ${describe(value)}`);
  }
  return value;
}

/**
 * `value` as an options object ({} when undefined). With `known` (the option names), a key outside it is refused
 * with the closest known name, so a typo such as `posiitons` fails loudly instead of falling back to a default.
 * Typed as the caller's options interface, so that the names it reads are checked against that interface.
 * @template T
 * @param {string} name
 * @param {T} value
 * @param {readonly string[]} [known]
 * @returns {NonNullable<T>}
 */
export function requireOptions(name, value, known) {
  if (value === undefined) {
    return /** @type {NonNullable<T>} */ ({});
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${name} must be an options object, got ${describe(value)}`);
  }
  if (known !== undefined) {
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) {
        const guess = closest(key, known);
        throw new TypeError(
          `${name} has no option "${key}"${guess ? ` (did you mean "${guess}"?)` : ''}; its options are ${known.join(', ')}`,
        );
      }
    }
  }
  return value;
}

/**
 * The known name within edit distance 2 of `key` (case aside), or undefined.
 * @param {string} key
 * @param {readonly string[]} known
 * @returns {string | undefined}
 */
export function closest(key, known) {
  const distance = (a, b) => {
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const row = [i];
      for (let j = 1; j <= b.length; j++) {
        row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
      previous = row;
    }
    return previous[b.length];
  };
  const scored = known
    .map((name) => /** @type {[number, string]} */ ([distance(key.toLowerCase(), name.toLowerCase()), name]))
    .sort((x, y) => x[0] - y[0]);
  return scored.length > 0 && scored[0][0] <= 2 ? scored[0][1] : undefined;
}

/**
 * Whether `text` is a file path rather than file contents: one short line that starts at a root (/, ./, ../, ~/,
 * C:\) or ends in a file extension, and is a single word unless it has both. Text of one line that merely begins
 * with a slash or ends with a file name ("/r/rust is great", "saved to notes.txt") is contents.
 * @param {string} text
 * @returns {boolean}
 */
export function looksLikePath(text) {
  if (text.length >= 1024 || /[\r\n]/.test(text)) {
    return false;
  }
  const rooted = /^(~|\.{1,2})?\//.test(text) || /^[A-Za-z]:[\\/]/.test(text);
  const named = /\.(txt|text|md|csv|tsv|jsonl?|vec|tiktoken|bpe|safetensors|emblvoc|model|bin)$/i.test(text);
  return /\s/.test(text) ? rooted && named : rooted || named;
}

/**
 * Refuses text that is a file path rather than file contents (see looksLikePath), which would otherwise fail deep
 * in a parser with a message about the format, or train on the path's letters.
 * @param {string} name
 * @param {string} text
 */
export function refusePathAsText(name, text) {
  if (looksLikePath(text)) {
    throw new TypeError(
      `${name} looks like a file path (${describe(text)}); pass the file's contents: readFileSync(path) in node, the File or its bytes in a browser (text that only looks like a path: pass its bytes, new TextEncoder().encode(text))`,
    );
  }
}

/** An optional AbortSignal: undefined, or an object with a boolean `aborted` (any realm's AbortSignal). */
/**
 * @param {string} name
 * @param {any} signal
 */
export function requireSignal(name, signal) {
  if (signal !== undefined && (signal === null || typeof signal.aborted !== 'boolean')) {
    throw new TypeError(`${name} must be an AbortSignal, got ${describe(signal)}`);
  }
}

/** @type {(value: unknown) => value is ArrayBufferView & ArrayLike<number>} */
const isTypedArray = (value) => ArrayBuffer.isView(value) && !(value instanceof DataView);

// ids: an Array or typed array of integers in [0, 2^31). Returns something Embind can read.
/**
 * @param {string} name
 * @param {unknown} ids
 * @param {number} maxLength
 * @returns {ArrayLike<number>}
 */
export function requireIds(name, ids, maxLength) {
  if (!Array.isArray(ids) && !isTypedArray(ids)) {
    throw new TypeError(`${name} must be an array or typed array of token ids, got ${describe(ids)}`);
  }
  if (ids.length > maxLength) {
    throw new RangeError(`${name}.length must be in [0, ${maxLength}], got ${ids.length}`);
  }
  if (ids instanceof Int32Array || ids instanceof Uint16Array || ids instanceof Uint8Array) {
    return ids;
  }
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (typeof id !== 'number' && typeof id !== 'bigint') {
      throw new TypeError(`${name}[${i}] must be an integer token id, got ${describe(id)}`);
    }
    if (typeof id === 'bigint' || !Number.isInteger(id) || id < 0 || id > 0x7fffffff) {
      throw new RangeError(`${name}[${i}] must be an integer in [0, 2147483647], got ${describe(id)}`);
    }
  }
  return ids;
}

// A vector of finite numbers (Array or typed array) of an expected length (or any when undefined).
/**
 * @param {string} name
 * @param {unknown} values
 * @param {number} [length]
 * @returns {ArrayLike<number>}
 */
export function requireVector(name, values, length) {
  if (!Array.isArray(values) && !isTypedArray(values)) {
    throw new TypeError(`${name} must be an array or Float32Array of numbers, got ${describe(values)}`);
  }
  if (length !== undefined && values.length !== length) {
    throw new RangeError(`${name}.length must be ${length}, got ${values.length}`);
  }
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'number') {
      throw new TypeError(`${name}[${i}] must be a number, got ${describe(values[i])}`);
    }
    if (!Number.isFinite(values[i])) {
      throw new RangeError(`${name}[${i}] must be a finite number, got ${describe(values[i])}`);
    }
  }
  return values;
}
