// Runs build/native/embedlab_text_probe (tests/cpp/tools/text_probe.cc: src/text's NFC and split regexes,
// natively) on many strings at once, and the UTF-16 <-> UTF-8 index conversions the comparisons need.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const probePath = fileURLToPath(new URL('../../build/native/embedlab_text_probe', import.meta.url));

function run(args, strings) {
  if (!existsSync(probePath)) {
    throw new Error(`${probePath} is missing: build natively first (bash scripts/build.sh)`);
  }
  const parts = [];
  for (const s of strings) {
    const bytes = Buffer.from(s, 'utf8');
    const header = Buffer.alloc(4);
    header.writeUInt32LE(bytes.length);
    parts.push(header, bytes);
  }
  return execFileSync(probePath, args, { input: Buffer.concat(parts), maxBuffer: 1 << 30 });
}

// [{ text, offsets }] for each string: the NFC form and out_to_source (byte offsets).
export function probeNfc(strings) {
  const out = run(['nfc'], strings);
  const results = [];
  let p = 0;
  for (let k = 0; k < strings.length; ++k) {
    const size = out.readUInt32LE(p);
    p += 4;
    const text = out.subarray(p, p + size).toString('utf8');
    p += size;
    const offsets = [];
    for (let i = 0; i <= size; ++i, p += 4) {
      offsets.push(out.readUInt32LE(p));
    }
    results.push({ text, offsets });
  }
  return results;
}

// For each string, its matches as [start, end] UTF-8 byte offsets. regex null: ByteLevelMatcher().
export function probeSplit(regex, strings) {
  const out = run(regex === null ? ['split-byte-level'] : ['split', regex], strings);
  const results = [];
  let p = 0;
  for (let k = 0; k < strings.length; ++k) {
    const count = out.readUInt32LE(p);
    p += 4;
    const matches = [];
    for (let i = 0; i < count; ++i, p += 8) {
      matches.push([out.readUInt32LE(p), out.readUInt32LE(p + 4)]);
    }
    results.push(matches);
  }
  return results;
}

// The matches of a JS RegExp (flag g) as [start, end] UTF-8 byte offsets, the way regex_split walks them.
export function jsMatches(regex, text) {
  const matches = [];
  let index = 0; // UTF-16 index whose UTF-8 offset is byte
  let byte = 0;
  const advance = (to) => {
    byte += Buffer.byteLength(text.slice(index, to), 'utf8');
    index = to;
  };
  for (const match of text.matchAll(regex)) {
    advance(match.index);
    const start = byte;
    advance(match.index + match[0].length);
    matches.push([start, byte]);
  }
  return matches;
}
