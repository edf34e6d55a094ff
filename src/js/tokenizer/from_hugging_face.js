// lab.tokenizerFromHuggingFace(json, {name, config}): a tokenizer.json (and its tokenizer_config.json) handed to the
// Hugging Face module's C++ core (hf_module.js) in one staging buffer, which parses and checks them (an unsupported part is refused by name).
import { describe, refusePathAsText, requireOptions } from '../runtime/checks.js';
import { HfTokenizer } from './hf_tokenizer.js';
/** @import { LabInternals } from '../runtime/types.js' */
/** @import { HfModule } from './hf_module.js' */
/** @import { HuggingFaceJson, TokenizerFromHuggingFaceOptions } from './types.js' */

const textEncoder = new TextEncoder();

// HfTokenizer.save()'s binary form begins with these bytes (src/hf/hf_binary.cc: "EMBLHF" and a version): such a
// file goes to the Hugging Face module, which checks the rest.
const HF_BINARY_MAGIC = new TextEncoder().encode('EMBLHF');

/**
 * @param {Uint8Array} bytes
 * @returns {boolean}
 */
export function isHfBinary(bytes) {
  return bytes.length >= HF_BINARY_MAGIC.length && HF_BINARY_MAGIC.every((byte, i) => bytes[i] === byte);
}

/**
 * A JSON file in any of the accepted forms as UTF-8 bytes.
 * @param {string} name the argument's name, for messages
 * @param {unknown} value
 * @returns {Uint8Array}
 */
function jsonBytes(name, value) {
  if (typeof value === 'string') {
    refusePathAsText(name, value);
    return textEncoder.encode(value);
  }
  if (value instanceof Uint8Array) {
    return value;
  }
  if (value instanceof ArrayBuffer) {
    return new Uint8Array(value);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value)) {
    return textEncoder.encode(JSON.stringify(value));
  }
  throw new TypeError(
    `${name} must be the file's text (a string), its bytes (Uint8Array or ArrayBuffer) or the parsed object, got ${describe(value)}`,
  );
}

/**
 * The arguments are checked before the Hugging Face module is started, so a wrong call loads nothing.
 * @param {() => Promise<LabInternals<HfModule>>} startHfModule the instance's Hugging Face module
 * @param {HuggingFaceJson} json tokenizer.json
 * @param {TokenizerFromHuggingFaceOptions} [options]
 * @returns {Promise<HfTokenizer>}
 */
export async function tokenizerFromHuggingFace(startHfModule, json, options) {
  const { name = 'tokenizer.json', config } = requireOptions('options', options, ['name', 'config']);
  if (typeof name !== 'string') {
    throw new TypeError(`options.name must be a string, got ${describe(name)}`);
  }
  const tokenizerBytes = jsonBytes('json', json);
  if (isHfBinary(tokenizerBytes)) {
    if (options?.name !== undefined || config !== undefined) {
      throw new TypeError(
        'options.name and options.config apply to a tokenizer.json: the binary form of HfTokenizer.save() carries its own',
      );
    }
    const hf = await startHfModule();
    hf.stage(tokenizerBytes);
    return new HfTokenizer(
      hf.lab,
      hf.lab.call(() => hf.raw.loadHfTokenizer()),
      hf.raw,
    );
  }
  const configBytes = config === undefined ? new Uint8Array(0) : jsonBytes('options.config', config);
  const staged = new Uint8Array(tokenizerBytes.length + configBytes.length);
  staged.set(tokenizerBytes, 0);
  staged.set(configBytes, tokenizerBytes.length);
  const { lab, raw, stage } = await startHfModule();
  stage(staged);
  return new HfTokenizer(
    lab,
    lab.call(() => raw.hfTokenizerFromJson(tokenizerBytes.length, name)),
    raw,
  );
}
