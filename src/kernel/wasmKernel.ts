import { KernelInputError, MAX_EVENTS, MAX_INPUT_BYTES, type PackedEvents } from './types.js';

/** The raw exports of build/kernel.wasm (assembly/index.ts documents the memory convention). */
export interface KernelExports {
  readonly memory: WebAssembly.Memory;
  readonly IO_CAP: WebAssembly.Global;
  readonly MAX_EVENTS: WebAssembly.Global;
  ioPtr(): number;
  resultPtr(): number;
  digestPtr(): number;
  eventsPtr(count: number): number;
  mulberry32(seed: number, count: number): number;
  generateMaze(seed: number, width: number, height: number, difficulty: number): number;
  profileMaze(seed: number, width: number, height: number, difficulty: number): number;
  wallsPtr(): number;
  solutionPtr(): number;
  mapEvent(width: number, height: number, cellSize: number, x: number, y: number, code: number): number;
  replay(count: number, seed: number, width: number, height: number, difficulty: number, cellSize: number, trigger: number): number;
  segmentCells(seed: number, width: number, height: number, difficulty: number, ax: number, ay: number, bx: number, by: number): number;
  segmentPtr(): number;
  detourCells(seed: number, width: number, height: number, difficulty: number, from: number, to: number): number;
  detourPtr(): number;
  sha256Init(): void;
  sha256Update(length: number): number;
  sha256Final(): number;
  leadingZeroBits(length: number): number;
  powCheck(length: number, nonce: number): number;
  powSolve(length: number, difficulty: number, from: number, batch: number): number;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const encoder = new TextEncoder();

/**
 * One instance of the module with cached views of its memory. The views are rebuilt only
 * after memory grows (growth detaches the old buffer, leaving the views empty).
 */
export class WasmKernel {
  readonly exports: KernelExports;
  readonly io: number;
  private readonly result: number;
  private readonly digest: number;
  private u8!: Uint8Array;
  private u16!: Uint16Array;
  private f64!: Float64Array;
  private ioView!: Uint8Array;

  constructor(instance: WebAssembly.Instance) {
    this.exports = instance.exports as unknown as KernelExports;
    const { IO_CAP, MAX_EVENTS: maxEvents } = this.exports;
    if (IO_CAP?.value !== MAX_INPUT_BYTES || maxEvents?.value !== MAX_EVENTS) {
      throw new Error('kernel.wasm does not match this loader (rebuild with npm run build:wasm)');
    }
    this.io = this.exports.ioPtr() >>> 0;
    this.result = this.exports.resultPtr() >>> 0;
    this.digest = this.exports.digestPtr() >>> 0;
    this.refresh();
  }

  private refresh(): void {
    const buffer = this.exports.memory.buffer;
    this.u8 = new Uint8Array(buffer);
    this.u16 = new Uint16Array(buffer);
    this.f64 = new Float64Array(buffer);
    this.ioView = this.u8.subarray(this.io, this.io + MAX_INPUT_BYTES);
  }

  /** Current memory views; call after any export that may grow memory. */
  bytes(): Uint8Array {
    if (this.u8.byteLength === 0) this.refresh();
    return this.u8;
  }

  words(): Uint16Array {
    if (this.u8.byteLength === 0) this.refresh();
    return this.u16;
  }

  floats(): Float64Array {
    if (this.u8.byteLength === 0) this.refresh();
    return this.f64;
  }

  /** Result slot `i` of the last call that returns several numbers. */
  resultAt(i: number): number {
    return this.floats()[(this.result >>> 3) + i]!;
  }

  /**
   * Copies packed events into wasm memory with one typed-array copy and returns their
   * count, to pass to any export that reads events.
   */
  writeEvents(events: PackedEvents): number {
    if (!(events instanceof Float64Array) || events.length % 4 !== 0) {
      throw new KernelInputError('events', 'events must be a Float64Array of 4 numbers per event');
    }
    const count = events.length / 4;
    if (count > MAX_EVENTS) throw new KernelInputError('events', `at most ${MAX_EVENTS} events`);
    const ptr = this.exports.eventsPtr(count) >>> 0;
    if (ptr === 0) throw new KernelInputError('events', 'no memory for the events');
    this.floats().set(events, ptr >>> 3);
    return count;
  }

  /** Writes the UTF-8 of `text` to the I/O buffer; returns its byte length. */
  writeText(field: string, text: string): number {
    if (typeof text !== 'string') throw new KernelInputError(field, `${field} must be a string`);
    this.bytes();
    const { read, written } = encoder.encodeInto(text, this.ioView);
    if (read !== text.length) throw new KernelInputError(field, `${field} exceeds ${MAX_INPUT_BYTES} bytes of UTF-8`);
    return written;
  }

  /** Writes at most MAX_INPUT_BYTES bytes to the I/O buffer. */
  writeBytes(data: Uint8Array): void {
    this.bytes().set(data, this.io);
  }

  digestBytes(): Uint8Array {
    return this.bytes().slice(this.digest, this.digest + 32);
  }

  digestHex(): string {
    const u8 = this.bytes();
    let hex = '';
    for (let i = this.digest; i < this.digest + 32; i++) hex += HEX[u8[i]!];
    return hex;
  }
}
