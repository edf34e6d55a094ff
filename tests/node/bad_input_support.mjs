// Shared by the bad-input tables (bad_input_tokenizer.test.mjs, bad_input_model.test.mjs): the check that an error
// is of the expected type and names what its message should, and a copy of bytes with one byte changed.
import assert from 'node:assert/strict';

export function checkError(name, type, message) {
  return (error) => {
    assert.ok(
      error instanceof type,
      `${name}: expected ${type.name}, got ${error?.constructor?.name}: ${error?.message}`,
    );
    assert.match(error.message, message, name);
    return true;
  };
}

export const tampered = (bytes, at, value) => {
  const copy = bytes.slice();
  copy[at] = value;
  return copy;
};
