// What every runtime's smoke report (smoke_core.mjs) must show, computed here in node 20: tiktoken's ids for the
// sentence, and the model's losses and logits from node 20's own run of the same package (the same wasm computes
// the same floats in every engine, so they must agree to the bit).
import assert from 'node:assert/strict';

import { get_encoding } from 'tiktoken';

import { MODEL_CONFIG, SENTENCE, smoke } from './smoke_core.mjs';

/** entryUrl: the package's ESM entry (file: URL). Resolves to {ids, reference} for checkReport. */
export async function expectations(entryUrl) {
  const cl100k = get_encoding('cl100k_base');
  const ids = Array.from(cl100k.encode(SENTENCE));
  cl100k.free();
  return { ids, reference: await smoke(() => import(entryUrl)) };
}

/**
 * Asserts a runtime's report. allowedGlobals: globals the runtime itself adds, not the package; hasProcess:
 * whether the runtime has node's process object (then its listener counts must not change).
 */
export function checkReport(report, { ids, reference }, { allowedGlobals = [], hasProcess = true } = {}) {
  assert.equal(report.flavour, 'simd');
  assert.equal(report.simdTarget, 'WASM');
  assert.deepEqual(report.ids, ids);
  assert.equal(report.decoded, SENTENCE);
  assert.deepEqual(report.losses, reference.losses);
  assert.equal(report.lossAfter, reference.lossAfter);
  assert.equal(report.logits.length, MODEL_CONFIG.contextLength * MODEL_CONFIG.vocabSize);
  assert.deepEqual(report.logits, reference.logits);
  assert.deepEqual(report.hfIds, [2, 4]);
  if (hasProcess) {
    assert.notEqual(report.listenersBefore, null, `${report.runtime} has node's process object`);
  } else {
    assert.equal(report.listenersBefore, null, `${report.runtime} has no process object`);
  }
  assert.deepEqual(report.listenersAfter, report.listenersBefore);
  assert.deepEqual(report.newGlobals, allowedGlobals);
}
