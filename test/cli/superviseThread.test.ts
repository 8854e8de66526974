/** A server thread's death is reported once (the process then exits), unless the process is stopping. */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { superviseThread } from '../../src/cli/superviseThread.js';

/** A real thread running `code`, supervised; resolves with what was reported once it exited. */
async function reportsOf(code: string, stopping = false): Promise<string[]> {
  const reports: string[] = [];
  const worker = new Worker(code, { eval: true });
  superviseThread(worker, 'server thread 2 of 2', { stopping: () => stopping, onCrash: (m) => reports.push(m) });
  await new Promise((r) => worker.once('exit', r));
  // 'error' precedes 'exit'; let both listeners run.
  await new Promise((r) => setImmediate(r));
  return reports;
}

describe('superviseThread', () => {
  it('reports a thread that throws, once, naming it and the error', async () => {
    const reports = await reportsOf("setTimeout(() => { throw new Error('bucket torn') }, 10)");
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/^server thread 2 of 2 crashed: Error: bucket torn/);
  });

  it('reports the error a thread caught and reported itself before exiting, once', async () => {
    const code =
      "require('node:worker_threads').parentPort.postMessage({ type: 'crashed', message: 'Error: bucket torn' }); setTimeout(() => process.exit(1), 10)";
    expect(await reportsOf(code)).toEqual(['server thread 2 of 2 crashed: Error: bucket torn']);
    expect(await reportsOf("require('node:worker_threads').parentPort.postMessage({ type: 'listening' })")).toEqual([
      'server thread 2 of 2 exited with code 0',
    ]);
  });

  it('reports a thread that exits while the process serves, with its code', async () => {
    expect(await reportsOf('process.exit(3)')).toEqual(['server thread 2 of 2 exited with code 3']);
    expect(await reportsOf('')).toEqual(['server thread 2 of 2 exited with code 0']);
  });

  it('reports nothing while the process is stopping', async () => {
    expect(await reportsOf('process.exit(0)', true)).toEqual([]);
    expect(await reportsOf("throw new Error('late')", true)).toEqual([]);
  });
});
