/**
 * V8's young generation, kept small to bound peak memory: by default each semi-space grows to
 * 16 MiB, and under load most of that is garbage waiting for a scavenge. At 2 MiB the peak RSS of
 * a WORKERS=1 server under the bench's load fell by about 30 MiB at the same CPU per request
 * (README, Benchmarks). V8 sizes a heap when it creates it, so the main thread takes this as a
 * node flag (the shebangs of cli.ts and cli/ariadne.ts, and `npm start`) and each serving thread
 * as a resource limit.
 */
export const SEMI_SPACE_MIB = 2;
export const SEMI_SPACE_FLAG = `--max-semi-space-size=${SEMI_SPACE_MIB}`;
/** A thread's young generation: two semi-spaces and a new large-object space of one's size. */
export const YOUNG_GENERATION_MIB = 3 * SEMI_SPACE_MIB;
