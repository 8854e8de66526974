// Ariadne kernel: one module for the server and the browser (kernel.md).
//
// Memory convention (for every export that reads events):
// - Packed events are 4 f64 per event (x, y, t, type code) in arrival order, at the
//   pointer returned by eventsPtr(count). That call grows memory as needed (which detaches
//   JS views: take a fresh view of memory.buffer after it), returns 0 when count is out of
//   range, and always returns the same address (EVENTS, just above the static data).
// - The host writes the events there with one typed-array copy, then passes `count` to
//   the exports that read them (replay, ...). Exports never modify the events, so several
//   exports can read one copy in turn.
// - Bytes from EVENTS + count * 32 upwards are scratch: replay writes its recorded cells
//   there (u16 cell indices; their address is one of its results); a new export may use them
//   too, after ensureHeap(end), and must not keep anything there across calls.
// - Small inputs (challenge text, hash chunks) go in the I/O buffer at ioPtr(), IO_CAP bytes;
//   calls returning several numbers put them as f64 at resultPtr(); digests go to digestPtr().
// - No export traps on bad arguments: they return a negative code instead.

export { ioPtr, resultPtr, digestPtr, eventsPtr, IO_CAP, MAX_EVENTS } from './memory';
export { mulberry32 } from './prng';
export { generateMaze, profileMaze, wallsPtr, solutionPtr } from './maze';
export { mapEvent } from './geometry';
export { replay } from './replay';
export { segmentCells, segmentPtr } from './segment';
export { detourCells, detourPtr } from './detour';
export { sha256Init, sha256Update, sha256Final, leadingZeroBits } from './sha256';
export { powCheck, powSolve } from './pow';
export * from './features';
