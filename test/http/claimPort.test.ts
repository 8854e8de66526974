import { describe, expect, it } from 'vitest';
import { claimPort, refuseClaimedPort } from '../../src/http/claimPort.js';
import { freePort } from '../helpers/freePort.js';

const HOST = '127.0.0.1';

describe.runIf(process.platform === 'linux')('claimPort and refuseClaimedPort', () => {
  it('a claimed port is refused to a sharing process, and to a second claim, until released', async () => {
    const claimed = await claimPort(HOST, 0);
    try {
      await expect(refuseClaimedPort(HOST, claimed.port)).rejects.toThrow(
        `could not listen on ${HOST}:${claimed.port} (another Ariadne process holds the port)`,
      );
      await expect(claimPort(HOST, claimed.port)).rejects.toThrow(`${HOST}:${claimed.port}`);
    } finally {
      claimed.release();
    }
    await expect(refuseClaimedPort(HOST, claimed.port)).resolves.toBeUndefined();
  });

  it('sharing processes checking at once all pass: the check holds the lock only for a moment', async () => {
    const port = await freePort();
    await expect(Promise.all(Array.from({ length: 8 }, () => refuseClaimedPort(HOST, port)))).resolves.toHaveLength(8);
  });

  it('a lock held briefly (as another check holds it) is waited out, not taken for a claim', async () => {
    const held = await claimPort(HOST, await freePort());
    setTimeout(() => held.release(), 30);
    await expect(refuseClaimedPort(HOST, held.port)).resolves.toBeUndefined();
  });
});
