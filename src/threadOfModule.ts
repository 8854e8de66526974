import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A thread running the module `name` (no extension) beside `base`, the caller's
 * import.meta.url. Run from the TypeScript sources (tests, development under tsx), the thread
 * registers tsx itself: loader flags do not reach threads.
 */
export function threadOfModule(base: string, name: string, options: WorkerOptions = {}): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), options);
  const entry = JSON.stringify(new URL(`./${name}.ts`, base).href);
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${entry}); })`, { ...options, eval: true });
}
