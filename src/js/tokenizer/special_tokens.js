// The special-token arguments peers' users write: tiktoken's positional encode(text, allowedSpecial,
// disallowedSpecial) next to our options object, and tiktoken's extend_special_tokens ({text: id}) for adding
// special tokens to a built-in encoding.
import { describe, requireInteger, requireOptions } from '../runtime/checks.js';

/**
 * The options object of encode()/count()/tokens() from either form: encode(text, {allowedSpecial, disallowedSpecial})
 * or tiktoken's encode(text, allowedSpecial, disallowedSpecial), e.g. encode(text, 'all').
 */
export function specialTokenOptions(options, disallowedSpecial) {
  const positional = typeof options === 'string' || (options != null && typeof options[Symbol.iterator] === 'function');
  if (positional) {
    return disallowedSpecial === undefined
      ? { allowedSpecial: options }
      : { allowedSpecial: options, disallowedSpecial };
  }
  if (disallowedSpecial !== undefined) {
    throw new TypeError(
      `disallowedSpecial as a third argument goes with tiktoken's form encode(text, allowedSpecial, disallowedSpecial); ` +
        `the second argument is ${describe(options)}: put disallowedSpecial in the options object instead`,
    );
  }
  if (options !== null && typeof options === 'object') {
    // A typo such as allowSpecial would otherwise fall back to the default and refuse the token it names.
    requireOptions('options', options, ['allowedSpecial', 'disallowedSpecial']);
  }
  return options === undefined ? {} : options;
}

/**
 * The extra special tokens of getTokenizer(name, {specialTokens}) as [{text, id}], checked against the encoding's
 * own: every id an integer below the lab's vocabulary limit, no id used twice, and a text that is already special
 * only with the id it has. Ids that are ranks of ordinary tokens are refused by the C++ core.
 */
export function requireSpecialTokenExtension(value, existing, maxVocabSize) {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Map) {
    throw new TypeError(`options.specialTokens must be an object {text: id}, got ${describe(value)}`);
  }
  const textOfId = new Map(existing.map((token) => [token.id, token.text]));
  const idOfText = new Map(existing.map((token) => [token.text, token.id]));
  const added = [];
  for (const [text, id] of Object.entries(value)) {
    const name = `options.specialTokens[${JSON.stringify(text)}]`;
    if (text === '') {
      throw new RangeError('options.specialTokens: a special token must not be the empty string');
    }
    requireInteger(name, id, 0, maxVocabSize - 1);
    if (idOfText.has(text)) {
      if (idOfText.get(text) !== id) {
        throw new RangeError(`${name}: ${text} is already special with id ${idOfText.get(text)}, not ${id}`);
      }
      continue; // the same token again: nothing to add
    }
    if (textOfId.has(id)) {
      throw new RangeError(`${name}: id ${id} is already the id of ${textOfId.get(id)}`);
    }
    textOfId.set(id, text);
    idOfText.set(text, id);
    added.push({ text, id });
  }
  return added;
}

/**
 * allowedSpecial or disallowedSpecial as {all, list}, the form the raw encoder takes.
 * @param {string} name
 * @param {any} value checked here
 * @returns {{ all: boolean, list: string[] }}
 */
export function specialList(name, value) {
  if (value === 'all') {
    return { all: true, list: [] };
  }
  if (value === undefined) {
    return { all: false, list: [] };
  }
  if (typeof value === 'string' || value === null || typeof value[Symbol.iterator] !== 'function') {
    throw new TypeError(`${name} must be 'all' or an array/Set of special-token strings, got ${describe(value)}`);
  }
  const list = [...value];
  list.forEach((item, i) => {
    if (typeof item !== 'string') {
      throw new TypeError(`${name}[${i}] must be a string, got ${describe(item)}`);
    }
  });
  return { all: false, list };
}
