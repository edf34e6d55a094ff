// Argument checks of the JS layer: types and integer-ness, with messages that name the argument and the
// allowed range. Ranges are checked again in C++, which owns them.

export function describe(value) {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return `an array of length ${value.length}`;
  }
  if (typeof value === 'string') {
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  }
  if (typeof value === 'object') {
    return `an object (${value.constructor?.name ?? 'Object'})`;
  }
  return String(value);
}

export function requireInteger(name, value, min, max) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be an integer in [${min}, ${max}], got ${describe(value)}`);
  }
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer in [${min}, ${max}], got ${describe(value)}`);
  }
  return value;
}

export function requireNumber(name, value, min, max) {
  if (typeof value !== 'number') {
    throw new TypeError(`${name} must be a finite number in [${min}, ${max}], got ${describe(value)}`);
  }
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a finite number in [${min}, ${max}], got ${describe(value)}`);
  }
  return value;
}

export function requireBoolean(name, value) {
  if (typeof value !== 'boolean') {
    throw new TypeError(`${name} must be true or false, got ${describe(value)}`);
  }
  return value;
}

export function requireOptions(name, value) {
  if (value === undefined) {
    return {};
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${name} must be an options object, got ${describe(value)}`);
  }
  return value;
}

const isTypedArray = (value) => ArrayBuffer.isView(value) && !(value instanceof DataView);

// ids: an Array or typed array of integers in [0, 2^31). Returns something Embind can read.
export function requireIds(name, ids, maxLength) {
  if (!Array.isArray(ids) && !isTypedArray(ids)) {
    throw new TypeError(`${name} must be an array or typed array of token ids, got ${describe(ids)}`);
  }
  if (ids.length > maxLength) {
    throw new RangeError(`${name}.length must be in [0, ${maxLength}], got ${ids.length}`);
  }
  if (ids instanceof Int32Array || ids instanceof Uint16Array || ids instanceof Uint8Array) {
    return ids;
  }
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (typeof id !== 'number' && typeof id !== 'bigint') {
      throw new TypeError(`${name}[${i}] must be an integer token id, got ${describe(id)}`);
    }
    if (typeof id === 'bigint' || !Number.isInteger(id) || id < 0 || id > 0x7fffffff) {
      throw new RangeError(`${name}[${i}] must be an integer in [0, 2147483647], got ${describe(id)}`);
    }
  }
  return ids;
}

// A vector of finite numbers (Array or typed array) of an expected length (or any when undefined).
export function requireVector(name, values, length) {
  if (!Array.isArray(values) && !isTypedArray(values)) {
    throw new TypeError(`${name} must be an array or Float32Array of numbers, got ${describe(values)}`);
  }
  if (length !== undefined && values.length !== length) {
    throw new RangeError(`${name}.length must be ${length}, got ${values.length}`);
  }
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'number') {
      throw new TypeError(`${name}[${i}] must be a number, got ${describe(values[i])}`);
    }
    if (!Number.isFinite(values[i])) {
      throw new RangeError(`${name}[${i}] must be a finite number, got ${describe(values[i])}`);
    }
  }
  return values;
}
