// EmbedLab's model methods: a new tiny GPT from a config, or one saved with model.save(). Each function takes
// the lab's internals ({lab, raw, stage}, see runtime/wasm_instance.js).
import { describe, refusePathAsText } from '../runtime/checks.js';
import { Model, normalizeModelConfig, requireTensorNames } from './model.js';
/** @import { LabInternals } from '../runtime/types.js' */
/** @import { ModelConfig } from './types.js' */

/**
 * @param {LabInternals} internals
 * @param {ModelConfig} config
 * @returns {Model}
 */
export function createModel({ lab, raw }, config) {
  const { model, optimizer } = normalizeModelConfig(config, lab);
  const frozen = config.frozen ?? [];
  requireTensorNames('config.frozen', frozen);
  // The raw module's GptConfig takes its enums as Embind enum values, named as the core names them; the seed crosses
  // apart, as a double the core's RequireSeed checks.
  const rawConfig = {
    ...model,
    positions: raw.PositionScheme[model.positions],
    ropeLayout: raw.RopeLayout[model.ropeLayout],
  };
  const created = new Model(
    lab,
    lab.call(() => raw.createModel(rawConfig, optimizer, model.seed)),
  );
  if (frozen.length > 0) {
    try {
      created.setFrozen(frozen);
    } catch (error) {
      created.dispose();
      throw error;
    }
  }
  return created;
}

/**
 * @param {LabInternals} internals
 * @param {Uint8Array | ArrayBuffer} bytes
 * @returns {Model}
 */
export function loadModel({ lab, raw, stage }, bytes) {
  if (typeof bytes === 'string') {
    refusePathAsText('bytes', bytes);
  }
  if (bytes instanceof ArrayBuffer) {
    bytes = new Uint8Array(bytes);
  }
  if (!(bytes instanceof Uint8Array)) {
    const hint = typeof bytes === 'string' ? " (a file's bytes: readFileSync(path) in node)" : '';
    throw new TypeError(`bytes must be a Uint8Array from model.save(), got ${describe(bytes)}${hint}`);
  }
  stage(bytes);
  return new Model(
    lab,
    lab.call(() => raw.loadModel()),
  );
}
