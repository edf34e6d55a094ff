// --tokenizer FILE or --encoding NAME as a tokenizer: shared by the commands and by the worker threads of
// `tokenize --format bin` and `count` (tokenize_threads.js), which each open their own.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { UsageError } from './usage_error.js';
import { isHfBinary } from '../tokenizer/from_hugging_face.js';

// --tokenizer FILE: a saved tokenizer, a Hugging Face tokenizer.json (with the tokenizer_config.json beside it, if
// any) or its saved binary form, or with --encoding NAME a plain .tiktoken file with NAME's pattern and special tokens; else --encoding NAME
// (default cl100k_base). `command` names the usage line of a usage error; the file's path as given names the tokenizer,
// so the library's messages about it name the file.
export async function openTokenizer(lab, values, command) {
  if (!values.tokenizer) {
    return lab.getTokenizer(values.encoding ?? 'cl100k_base');
  }
  const bytes = readFileSync(values.tokenizer);
  const hfBinary = isHfBinary(bytes);
  if (hfBinary || isJsonObject(bytes)) {
    if (values.encoding !== undefined) {
      throw new UsageError(
        `${values.tokenizer} is a Hugging Face tokenizer.json with its own pipeline: drop --encoding`,
        command,
      );
    }
    if (hfBinary) {
      return lab.tokenizerFromHuggingFace(bytes); // HfTokenizer.save()'s binary form carries its settings
    }
    const configFile = join(dirname(values.tokenizer), 'tokenizer_config.json');
    const config = existsSync(configFile) ? readFileSync(configFile) : undefined;
    try {
      return await lab.tokenizerFromHuggingFace(bytes, { name: values.tokenizer, config });
    } catch (error) {
      // The core names the files generically ("tokenizer.json: model.vocab: …"): name the ones read here.
      error.message = error.message
        .replace(/^tokenizer\.json(?=:)/, values.tokenizer)
        .replace(/^tokenizer_config\.json(?=:)/, configFile);
      throw error;
    }
  }
  const plain = !bytes.subarray(0, 13).toString('latin1').startsWith('#embedlab-bpe');
  if (values.encoding !== undefined) {
    if (!plain) {
      // Else its header line reaches the .tiktoken parser, which reports invalid base64 on line 1.
      throw new UsageError(`${values.tokenizer} is a saved tokenizer with its own pattern: drop --encoding`, command);
    }
    return lab.tokenizerFromVocabulary({ tiktoken: bytes, encoding: values.encoding });
  }
  try {
    return await lab.loadTokenizer(bytes);
  } catch (error) {
    throw plain
      ? new TypeError(`${values.tokenizer} is not a saved tokenizer; for a plain .tiktoken file add --encoding NAME`)
      : error;
  }
}

// A JSON object's text (a tokenizer.json) starts with "{" after any whitespace; no other tokenizer file does.
function isJsonObject(bytes) {
  const start = bytes.findIndex((byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d);
  return start >= 0 && bytes[start] === 0x7b;
}
