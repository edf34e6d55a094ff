// Names a package module inside its .wasm: appends a custom section "embedlab" holding the file's base name
// (embedlab-simd, embedlab-tokenizer-fallback, ...), replacing one left by an earlier run. createEmbedLab({wasm})
// reads it with WebAssembly.Module.customSections to pick the glue of a module it is given (the two flavours'
// glues differ: the fallback's C++ exceptions go through JS) and to name another entry's module in its error.
// Run by the wasm build after each link. Usage: node scripts/name-wasm-module.mjs dist/embedlab-simd.js [...]
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const SECTION = 'embedlab';

const leb128 = (value) => {
  const bytes = [];
  do {
    const byte = value & 0x7f;
    value >>>= 7;
    bytes.push(value === 0 ? byte : byte | 0x80);
  } while (value !== 0);
  return bytes;
};

function readLeb128(bytes, at) {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) {
      return [value, at];
    }
  }
}

// The module's sections other than an "embedlab" custom section, as [start, end) byte ranges.
function keptSections(bytes) {
  const kept = [];
  let at = 8;
  while (at < bytes.length) {
    const start = at;
    const id = bytes[at];
    const [size, contents] = readLeb128(bytes, at + 1);
    at = contents + size;
    if (id === 0) {
      const [nameLength, name] = readLeb128(bytes, contents);
      if (new TextDecoder().decode(bytes.subarray(name, name + nameLength)) === SECTION) {
        continue;
      }
    }
    kept.push([start, at]);
  }
  return kept;
}

for (const glue of process.argv.slice(2)) {
  const file = glue.replace(/\.js$/, '.wasm');
  const bytes = readFileSync(file);
  const name = new TextEncoder().encode(SECTION);
  const payload = new TextEncoder().encode(basename(file, '.wasm'));
  const contents = [...leb128(name.length), ...name, ...payload];
  const parts = [bytes.subarray(0, 8), ...keptSections(bytes).map(([s, e]) => bytes.subarray(s, e))];
  parts.push(Uint8Array.from([0, ...leb128(contents.length), ...contents]));
  writeFileSync(file, Buffer.concat(parts));
}
