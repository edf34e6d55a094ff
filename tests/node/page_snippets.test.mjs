// The PyTorch snippets the page shows beside each positional scheme (<code data-snippet="…"> blocks in
// web/sections/*.html), run as they are printed with PyTorch (EMBEDLAB_TORCH_PYTHON, default /usr/bin/python3)
// and compared with what the library computes: the sinusoidal table, the RoPE rotation, Press et al.'s ALiBi
// slopes and bias, the causal mask of NoPE, and learned positions added to token vectors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import createEmbedLab from '../../dist/index.js';

const SECTIONS = new URL('../../web/sections/', import.meta.url);
const PYTHON = process.env.EMBEDLAB_TORCH_PYTHON ?? '/usr/bin/python3';
const SCHEMES = ['sinusoidal', 'learned', 'rope', 'alibi', 'nope']; // sections 4, 5 and 7

const unescapeHtml = (s) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** {scheme: python source} from every section fragment. */
function pageSnippets() {
  const found = {};
  for (const file of readdirSync(SECTIONS).filter((f) => f.endsWith('.html'))) {
    const html = readFileSync(join(SECTIONS.pathname, file), 'utf8');
    for (const [, scheme, code] of html.matchAll(/<code[^>]*\bdata-snippet="([\w-]+)"[^>]*>([\s\S]*?)<\/code>/g)) {
      assert.ok(!(scheme in found), `two snippets for ${scheme}`);
      found[scheme] = unescapeHtml(code);
    }
  }
  return found;
}

// Per scheme: what the snippet's functions give for the cases (numbers from the library travel as lists).
const HARNESS = String.raw`
import json, math, sys
import torch

def run_sinusoidal(ns, case):
    return [ns["sinusoidal_table"](c["length"], c["dim"], c["base"]).tolist() for c in case]

def run_rope(ns, case):
    out = []
    for c in case:
        x = torch.tensor(c["x"], dtype=torch.float64)
        one = [ns["rope_rotate"](x, p).tolist() for p in c["positions"]]
        rows = x.repeat(len(c["positions"]), 1)
        at = torch.tensor(c["positions"], dtype=torch.float64)[:, None]
        out.append({"one": one, "rows": ns["rope_rotate"](rows, at).tolist()})
    return out

def run_alibi(ns, case):
    slopes = {h: [float(s) for s in ns["alibi_slopes"](h)] for h in case["heads"]}
    bias = ns["alibi_bias"](slopes[case["biasHeads"]], case["length"])
    return {"slopes": slopes, "bias": [[[x if math.isfinite(x) else None for x in r] for r in m] for m in bias.tolist()]}

def run_nope(ns, case):
    w = torch.tensor(case["bidirectional"], dtype=torch.float64)
    return ns["causal_weights"](w.log()).tolist()

def run_learned(ns, case):
    module = ns["LearnedPositions"](case["maxLength"], case["dim"])
    with torch.no_grad():
        module.wpe.weight.copy_(torch.tensor(case["table"]))
        x = torch.tensor(case["tokens"])
        return module(x).tolist()

request = json.load(sys.stdin)
results = {}
for scheme, code in request["snippets"].items():
    ns = {}
    exec(compile(code, "snippet " + scheme, "exec"), ns)
    results[scheme] = globals()["run_" + scheme](ns, request["cases"][scheme])
print(json.dumps(results))
`;

const rows = (flat, dim) =>
  Array.from({ length: flat.length / dim }, (_, r) => Array.from(flat.subarray(r * dim, (r + 1) * dim)));

function maxAbsDiff(a, b) {
  const x = a.flat(Infinity);
  const y = b.flat(Infinity);
  assert.equal(x.length, y.length, 'shapes differ');
  return Math.max(...x.map((v, i) => Math.abs(v - y[i])));
}

describe('the PyTorch snippets on the page compute what the library computes', () => {
  let lab;
  let snippets;
  let cases;
  let results;

  before(async () => {
    lab = await createEmbedLab();
    snippets = pageSnippets();
    const seeded = (vocabSize, dim, seed) => lab.tokenEmbedding({ vocabSize, dim, seed, stddev: 1 });
    const vectors = seeded(2, 64, 11);
    const x = seeded(50, 8, 4).lookup([3, 17, 5, 3, 42]);
    const attention = (causal) => lab.selfAttention({ dim: 8, seed: 6, causal }).forward(x);
    const learned = lab.positionalEncoding('learned', { dim: 8, maxLength: 12, seed: 2, stddev: 0.5 });
    const composed = lab.compose([3, 17, 5, 3, 42], { embedding: seeded(50, 8, 4), positional: learned });
    cases = {
      sinusoidal: [
        { length: 128, dim: 64, base: 10000 },
        { length: 64, dim: 16, base: 1000 },
        { length: 40, dim: 6, base: 10 },
      ],
      rope: [
        { x: Array.from(vectors.lookup([0])).slice(0, 16), positions: [0, 1, 5, 47, 300] },
        { x: Array.from(vectors.lookup([1])), positions: [0, 2, 63, 1000] },
      ],
      alibi: { heads: Array.from({ length: 16 }, (_, i) => i + 1), biasHeads: 6, length: 7 },
      nope: { bidirectional: rows(attention(false).weights, 5), causal: rows(attention(true).weights, 5) },
      learned: {
        maxLength: 12,
        dim: 8,
        table: rows(learned.table(12), 8),
        tokens: rows(composed.tokenVectors, 8),
        inputs: rows(composed.inputVectors, 8),
      },
    };
    const request = {
      snippets,
      cases: Object.fromEntries(Object.keys(snippets).map((s) => [s, cases[s]])),
    };
    const out = execFileSync(PYTHON, ['-c', HARNESS], { input: JSON.stringify(request), encoding: 'utf8' });
    results = JSON.parse(out);
  });

  test('the page shows a snippet for each scheme, and only schemes the test knows', () => {
    for (const scheme of SCHEMES) {
      assert.ok(scheme in snippets, `no snippet for ${scheme}`);
    }
    for (const scheme of Object.keys(snippets)) {
      assert.ok(scheme in cases, `the test has no check for the snippet "${scheme}"`);
    }
  });

  test('sinusoidal: sinusoidal_table equals lab.positionalEncoding’s table', () => {
    cases.sinusoidal.forEach(({ length, dim, base }, n) => {
      const pe = lab.positionalEncoding('sinusoidal', { dim, base, maxLength: length });
      const diff = maxAbsDiff(results.sinusoidal[n], rows(pe.table(length), dim));
      pe.dispose();
      assert.ok(diff < 2e-5, `d = ${dim}, base ${base}: max |difference| ${diff}`); // float32 angles up to 127 rad
    });
  });

  test('rope: rope_rotate equals lab.ropeRotate, one position at a time and for a column of positions', () => {
    cases.rope.forEach(({ x, positions }, n) => {
      const expected = positions.map((p) => Array.from(lab.ropeRotate(x, p)));
      const { one, rows: many } = results.rope[n];
      const tolerance = 1e-5 * Math.max(...positions, 1); // float32 angles in the library
      assert.ok(maxAbsDiff(one, expected) < tolerance, `d = ${x.length}: ${maxAbsDiff(one, expected)}`);
      assert.ok(maxAbsDiff(many, expected) < tolerance, `d = ${x.length}, rows: ${maxAbsDiff(many, expected)}`);
    });
  });

  test('alibi: alibi_slopes equals lab.alibiSlopes for 1…16 heads, and alibi_bias is −m·(i − j), −inf ahead', () => {
    for (const heads of cases.alibi.heads) {
      const library = Array.from(lab.alibiSlopes(heads));
      const snippet = results.alibi.slopes[heads].map(Math.fround);
      assert.deepEqual(snippet, library, `${heads} heads`);
    }
    const slopes = lab.alibiSlopes(cases.alibi.biasHeads);
    const L = cases.alibi.length;
    const expected = Array.from(slopes, (m) =>
      Array.from({ length: L }, (_, i) => Array.from({ length: L }, (_, j) => (j <= i ? -m * (i - j) : null))),
    );
    const got = results.alibi.bias;
    assert.equal(got.length, slopes.length);
    got.forEach((matrix, h) =>
      matrix.forEach((row, i) =>
        row.forEach((v, j) => {
          const e = expected[h][i][j];
          if (e === null) {
            assert.equal(v, null, `head ${h + 1}, query ${i}, key ${j} is not masked`);
          } else {
            assert.ok(Math.abs(v - e) < 1e-6, `head ${h + 1}, query ${i}, key ${j}: ${v} vs ${e}`);
          }
        }),
      ),
    );
  });

  test('nope: causal_weights on the library’s bidirectional scores gives the library’s causal weights', () => {
    // log(softmax) is the scores up to a constant per row, which softmax ignores: the mask is all that differs.
    const diff = maxAbsDiff(results.nope, cases.nope.causal);
    assert.ok(diff < 1e-5, `max |difference| ${diff}`);
    assert.equal(cases.nope.causal[0][0], 1); // the first token sees only itself
  });

  test('learned: LearnedPositions adds the library’s table to the token vectors, as lab.compose does', () => {
    const diff = maxAbsDiff(results.learned, cases.learned.inputs);
    assert.ok(diff < 1e-6, `max |difference| ${diff}`);
  });
});
