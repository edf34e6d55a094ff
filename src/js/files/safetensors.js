// Reading safetensors files by parts: the 8-byte length, the JSON header, then only the tensors asked
// for. A source is bytes (Uint8Array/ArrayBuffer) or a Blob/File, read with slice(), so a page can take
// wpe out of a 500 MB GPT-2 file without loading the rest. Parsing happens in the bounds-checked C++ reader.
import { describe } from '../runtime/checks.js';
import { WasmHandle } from '../runtime/wasm_handle.js';

export function byteReader(source) {
  if (source instanceof ArrayBuffer) {
    source = new Uint8Array(source);
  }
  if (source instanceof Uint8Array) {
    return { size: source.length, read: async (offset, length) => source.subarray(offset, offset + length) };
  }
  if (
    source !== null &&
    typeof source === 'object' &&
    typeof source.size === 'number' &&
    typeof source.slice === 'function'
  ) {
    return {
      size: source.size,
      read: async (offset, length) => new Uint8Array(await source.slice(offset, offset + length).arrayBuffer()),
    };
  }
  throw new TypeError(`source must be a Uint8Array, an ArrayBuffer or a Blob/File, got ${describe(source)}`);
}

export class SafetensorsFile extends WasmHandle {
  #reader;
  #stage;

  constructor(lab, raw, reader, stage) {
    super(lab, raw);
    this.#reader = reader;
    this.#stage = stage;
    /** [{name, dtype, shape, offset, byteLength}] in file order. */
    this.tensors = raw.tensors();
    /** The header's __metadata__ strings. */
    this.metadata = raw.metadata();
  }

  /** Reads one tensor (any float dtype) as a Float32Array; only its bytes are read from the source. */
  async get(name) {
    const raw = this.raw();
    if (typeof name !== 'string') {
      throw new TypeError(`name must be a tensor name string, got ${describe(name)}`);
    }
    const entry = this.tensors.find((tensor) => tensor.name === name);
    if (entry === undefined) {
      throw new RangeError(
        `name must be one of the file's tensors (${this.tensors
          .map((t) => t.name)
          .slice(0, 8)
          .join(', ')}${this.tensors.length > 8 ? ', …' : ''}), got ${describe(name)}`,
      );
    }
    const bytes = await this.#reader.read(entry.offset, entry.byteLength);
    this.#stage(bytes);
    return this.lab.call(() => raw.decode(name));
  }
}

/** Opens a safetensors source: reads the 8-byte length and the header, nothing else. */
export async function openSafetensors(lab, rawModule, source, stage) {
  const reader = byteReader(source);
  if (reader.size < 8) {
    throw new RangeError(`source must hold at least the 8-byte header length, got ${reader.size} bytes`);
  }
  stage(await reader.read(0, 8));
  const headerLength = lab.call(() => rawModule.safetensorsHeaderLength(reader.size));
  stage(await reader.read(8, headerLength));
  return new SafetensorsFile(
    lab,
    lab.call(() => rawModule.parseSafetensorsHeader(reader.size)),
    reader,
    stage,
  );
}
