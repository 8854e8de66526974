/**
 * V8's heap, kept small to bound peak memory. V8 sizes a heap when it creates it, so the main
 * thread takes these as node flags (NODE_HEAP_FLAGS: the shebangs of cli.ts and cli/ariadne.ts,
 * and `npm start`); the old generation's growth is a process-wide flag that serving threads share,
 * and each serving thread takes the young generation's bound as a resource limit.
 *
 * Young generation: by default each semi-space grows to 16 MiB, and under load most of that is
 * garbage waiting for a scavenge. At 2 MiB the peak RSS of a WORKERS=1 server under the bench's load
 * fell by about 30 MiB at the same CPU per request (README, Benchmarks).
 *
 * Old generation: V8 lets it grow to up to about four times what the last full collection kept
 * before collecting again, so a server keeping 25 MiB at start-up reached 100 MiB of mostly garbage
 * under the bench's load before its next full collection. Growing by a quarter of what is kept
 * collects more often (6 full collections instead of 2 over the bench's per-route load, each
 * marking the ~50 MiB kept) and took the bench's peak RSS from 153-183 MiB to 140-143 MiB.
 */
const SEMI_SPACE_MIB = 2;
/** A thread's young generation: two semi-spaces and a new large-object space of one's size. */
export const YOUNG_GENERATION_MIB = 3 * SEMI_SPACE_MIB;
const HEAP_GROWING_PERCENT = 25;
export const NODE_HEAP_FLAGS = [`--max-semi-space-size=${SEMI_SPACE_MIB}`, `--heap-growing-percent=${HEAP_GROWING_PERCENT}`] as const;
