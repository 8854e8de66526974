// The proof-of-work Web Worker: receives the compiled kernel module with each job, searches
// in batches for every difficulty asked (lowest first), reports progress and each proof found,
// and stops when a newer job (or a cancel) arrives.
import type { Kernel } from '../kernel/types.js';
import { instantiateKernel } from './kernel.js';
import { searchPow } from './powSearch.js';

export type WorkerRequest =
  | { type: 'solve'; id: number; module: WebAssembly.Module; challenge: string; difficulties: number[] }
  | { type: 'cancel' };

export type WorkerReply =
  | { type: 'progress'; id: number; tried: number }
  | { type: 'found'; id: number; difficulty: number; nonce: number; hash: string }
  | { type: 'error'; id: number; message: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;
let current = 0;
let kernel: { module: WebAssembly.Module; kernel: Promise<Kernel> } | null = null;

function post(reply: WorkerReply): void {
  scope.postMessage(reply);
}

scope.onmessage = async (e: MessageEvent<WorkerRequest>) => {
  const msg = e.data;
  if (msg.type === 'cancel') {
    current = 0;
    return;
  }
  const id = (current = msg.id);
  try {
    if (kernel?.module !== msg.module) kernel = { module: msg.module, kernel: instantiateKernel(msg.module) };
    const k = await kernel.kernel;
    await searchPow(
      k,
      msg.challenge,
      msg.difficulties,
      () => current !== id,
      (tried) => post({ type: 'progress', id, tried }),
      (difficulty, proof) => post({ type: 'found', id, difficulty, ...proof }),
    );
  } catch (err) {
    post({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
  }
};
