// Reading safetensors files by parts: the 8-byte length, the JSON header, then only the tensors asked
// for. A source is bytes (Uint8Array/ArrayBuffer) or a Blob/File, read with slice(), so a page can take
// wpe out of a 500 MB GPT-2 file without loading the rest. Parsing happens in the bounds-checked C++ reader.
import { describe } from '../runtime/checks.js';
import { WasmHandle } from '../runtime/wasm_handle.js';
/** @import { EmbedLab } from '../lab.js' */
/** @import { TensorInfo } from './types.js' */

/** @typedef {{ size: number, read: (offset: number, length: number) => Promise<Uint8Array> }} ByteReader */

/**
 * @param {Uint8Array | ArrayBuffer | Blob} source
 * @returns {ByteReader}
 * @internal
 */
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

/** An open safetensors file; only the header has been read. */
export class SafetensorsFile extends WasmHandle {
  /** @type {ByteReader} */
  #reader;
  /** @type {(bytes: Uint8Array) => void} */
  #stage;

  /**
   * @internal
   * @param {EmbedLab} lab
   * @param {any} raw
   * @param {ByteReader} reader
   * @param {(bytes: Uint8Array) => void} stage
   */
  constructor(lab, raw, reader, stage) {
    super(lab, raw);
    this.#reader = reader;
    this.#stage = stage;
    /**
     * [{name, dtype, shape, offset, byteLength}] in file order.
     * @readonly
     * @type {TensorInfo[]}
     */
    this.tensors = raw.tensors();
    /**
     * The header's __metadata__ strings.
     * @readonly
     * @type {Record<string, string>}
     */
    this.metadata = raw.metadata();
  }

  /**
   * Reads one float tensor (F32/F16/BF16/F64) as float32; only its bytes are read. Tensors of other dtypes (U8,
   * I8, BOOL, F8_E4M3, ...) are listed in `tensors`, and only `get` of such a tensor rejects.
   * @param {string} name
   * @returns {Promise<Float32Array>}
   */
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

/**
 * Opens a safetensors source: reads the 8-byte length and the header, nothing else.
 * @param {EmbedLab} lab
 * @param {any} rawModule
 * @param {Uint8Array | ArrayBuffer | Blob} source
 * @param {(bytes: Uint8Array) => void} stage
 * @returns {Promise<SafetensorsFile>}
 * @internal
 */
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
