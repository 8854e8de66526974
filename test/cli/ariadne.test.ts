import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { scoringTables } from '../../src/core/scoring/ScoringTable.js';
import { traceTimePassed } from '../helpers/ariadneNode.js';
import { ARIADNE_BIN, repoRoot, runAriadne, startProcess } from '../helpers/cliProcess.js';
import { buildSubmission, postJson } from '../helpers/client.js';
import { testKernel } from '../helpers/server.js';
import { mazeOf } from '../helpers/humanTraces.js';
import { scriptAtKeys } from '../helpers/keyboardSolves.js';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';

const BIN = ARIADNE_BIN;
const SECRET = 'cli-test-signing-secret-0123456789abcdef';
const run = promisify(execFile);

const ariadne = (args: string[], env: Record<string, string> = {}) => runAriadne(args, { env });

/** The children of `pid` (Linux). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const READY = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ariadne-bin-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const siteFile = (maze: { width: number; height: number }, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ sites: { local: { hostnames: ['127.0.0.1', 'localhost'], secret: 'l'.repeat(40), policy: { maze } }, ...extra } });

describe('ariadne secret', () => {
  it('prints a new 43-character secret each time, which SIGNING_SECRET accepts', async () => {
    const a = await ariadne(['secret']);
    const b = await ariadne(['secret']);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    expect(b.stdout).not.toBe(a.stdout);
    expect(loadConfig({ SIGNING_SECRET: a.stdout.trim() }).ok).toBe(true);
  });
});

describe('ariadne check', () => {
  it('exits 0 for a valid environment and sites file, naming the sites', async () => {
    const r = await ariadne(['check'], { SIGNING_SECRET: SECRET, SITES_FILE: path.join(repoRoot, 'docs/sites.example.json') });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('ok: the configuration is valid; 3 site(s) from');
    expect(r.stdout).toContain('shop-7f3a2c, forum-91bd04, staging');
  });

  it('exits 0 without a sites file, and says every site key is served', async () => {
    const r = await ariadne(['check'], { SIGNING_SECRET: SECRET });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no SITES_FILE: every site key is served under one policy');
  });

  it('exits 1 for a bad variable, naming it', async () => {
    const r = await ariadne(['check'], { SIGNING_SECRET: SECRET, MAZE_WIDTH: 'wide' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('MAZE_WIDTH');
  });

  it('exits 1 for a bad sites file, naming the site and the field; and for a missing one', async () => {
    const file = path.join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({ sites: { shop: { hostnames: ['shop.example'], secret: 's'.repeat(40), policy: { maze: { height: 1 } } } } }),
    );
    const r = await ariadne(['check'], { SIGNING_SECRET: SECRET, SITES_FILE: file });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`SITES_FILE ${file}: site "shop": policy.maze.height: Expected integer to be greater or equal to 2`);
    const missing = await ariadne(['check'], { SIGNING_SECRET: SECRET, SITES_FILE: path.join(dir, 'nope.json') });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot be read');
  });

  it('an unknown command exits 2 with the usage', async () => {
    const r = await ariadne(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: ariadne');
  });
});

describe('ariadne (start)', () => {
  it('`npx ariadne` in a project that installed the package starts the server and says where the demo and the API are', async () => {
    const project = path.join(dir, 'consumer');
    await rm(project, { recursive: true, force: true });
    await run('mkdir', ['-p', project]);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, dependencies: { ariadne: `file:${repoRoot}` } }),
    );
    await run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: project, timeout: 60_000 });
    const p = startProcess('npx', ['--no-install', 'ariadne'], {
      cwd: project,
      env: { PORT: '0', HOST: '127.0.0.1', SIGNING_SECRET: SECRET },
    });
    try {
      await until(() => READY.test(p.output()), 30_000, 'the ready line');
      const url = READY.exec(p.output())![1]!;
      expect(p.output()).toContain(
        `ariadne ready: demo ${url}/ · API routes under ${url}/api/captcha/ (and ${url}/): POST challenge, verify, siteverify · OpenAPI ${url}/openapi.json`,
      );
      expect(p.output()).toContain('no SITES_FILE: every site key is served under one policy');
      // Every address the ready line names answers, as someone pasting it into a browser finds.
      const ready = /ariadne ready: [^"]*/.exec(p.output())![0];
      const named = ready.match(/http:\/\/[^\s,)]+/g)!;
      expect(named.length).toBeGreaterThanOrEqual(4);
      for (const address of named) expect([address, (await fetch(address)).status]).toEqual([address, 200]);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect((await fetch(`${url}/`)).status).toBe(200);
    } finally {
      p.killAll();
    }
  }, 120_000);

  it('writes JSON lines when stdout is not a terminal, and readable lines when it is', async () => {
    const piped = startProcess(process.execPath, [BIN], { env: { PORT: '0', HOST: '127.0.0.1', SIGNING_SECRET: SECRET } });
    try {
      await until(() => READY.test(piped.output()), 20_000, 'the ready line');
      for (const line of piped.output().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      piped.killAll();
    }
    // `script` gives the server a terminal for its stdout; `exec` makes the server its child.
    const tty = startProcess('script', ['-qfec', `exec ${process.execPath} ${BIN}`, '/dev/null'], {
      env: { PORT: '0', HOST: '127.0.0.1', SIGNING_SECRET: SECRET, TERM: 'dumb' },
    });
    try {
      await until(() => /ariadne ready: demo http:\/\/127\.0\.0\.1:\d+\//.test(tty.output()), 20_000, 'the pretty ready line');
      expect(tty.output()).toMatch(/INFO.*ariadne ready/);
      expect(tty.output()).not.toContain('{"level"');
    } finally {
      // The server runs in a session of its own (script's terminal), out of reach of killAll.
      for (const pid of childrenOf(tty.child.pid!)) killQuietly(pid);
      tty.killAll();
    }
  });

  it('does not start with a broken sites file, and says which site and field', async () => {
    const file = path.join(dir, 'broken.json');
    await writeFile(file, JSON.stringify({ sites: { shop: { hostnames: ['shop.example'], secret: 'short' } } }));
    const p = startProcess(process.execPath, [BIN], { env: { PORT: '0', HOST: '127.0.0.1', SIGNING_SECRET: SECRET, SITES_FILE: file } });
    try {
      expect(await p.exited).toBe(1);
      expect(p.output()).toContain('site "shop": secret: Expected string length greater or equal to 32');
    } finally {
      p.killAll();
    }
  });

  it("does not start with a site's table_file that is not a scoring table, and says which site, field and file", async () => {
    const file = path.join(dir, 'with-table.json');
    await writeFile(path.join(dir, 'not-a-table.json'), JSON.stringify({ version: 'v3-site', threshold: 0.5 }));
    const policy = { scoring: { table_file: 'not-a-table.json' } };
    await writeFile(file, JSON.stringify({ sites: { shop: { hostnames: ['shop.example'], secret: 's'.repeat(40), policy } } }));
    const p = startProcess(process.execPath, [BIN], { env: { PORT: '0', HOST: '127.0.0.1', SIGNING_SECRET: SECRET, SITES_FILE: file } });
    try {
      expect(await p.exited).toBe(1);
      expect(p.output()).toContain(
        `site "shop": policy.scoring.table_file: ${path.join(dir, 'not-a-table.json')} is not a scoring table: types: Expected required property`,
      );
    } finally {
      p.killAll();
    }
  });

  it("SIGHUP reads a site's changed table_file again; a table that is not one keeps the last in service", async () => {
    const file = path.join(dir, 'sites-with-table.json');
    const tableFile = path.join(dir, 'site-table.json');
    // A table like v3 whose models weigh nothing and have no gates: every solve scores FLAT, so its
    // threshold alone decides.
    const FLAT = 0.8;
    const flat = { bias: Math.log(FLAT / (1 - FLAT)), terms: [] };
    const table = (threshold: number) =>
      JSON.stringify({
        ...scoringTables.v3,
        version: `flat-${threshold}`,
        threshold,
        types: { mouse: flat, touch: flat, pen: flat, keyboard: flat },
      });
    await writeFile(tableFile, table(0.85));
    await writeFile(
      file,
      JSON.stringify({
        sites: {
          local: {
            hostnames: ['127.0.0.1'],
            secret: 'l'.repeat(40),
            policy: { scoring: { mode: 'enforce', table_file: 'site-table.json' } },
          },
        },
      }),
    );
    const p = startProcess(process.execPath, [BIN], { env: { PORT: '0', HOST: '127.0.0.1', SIGNING_SECRET: SECRET, SITES_FILE: file } });
    const kernel = await testKernel();
    try {
      await until(() => READY.test(p.output()), 20_000, 'the ready line');
      const url = READY.exec(p.output())![1]!;
      // Solves that cannot be near-copies of one another: one accepted pointer trace (a fixed
      // rhythm), then a keyboard solve with gaps drawn at random.
      const verified = async (how: 'pointer' | 'keyboard') => {
        const ch = (await postJson(`${url}/challenge`, { site_key: 'local' }, { origin: 'http://127.0.0.1' })).body as unknown as Challenge;
        const events = how === 'pointer' ? undefined : scriptAtKeys(kernel.generateMaze(mazeOf(ch)), 'lognormal', 'none', 7);
        const body = buildSubmission(kernel, ch, events === undefined ? {} : { events });
        await traceTimePassed(ch, body);
        const r = await postJson(`${url}/verify`, body, { origin: 'http://127.0.0.1' });
        return r.body.success === true ? 'accepted' : String(r.body.error_code);
      };
      expect(await verified('pointer')).toBe('behavioral_rejected');

      await writeFile(tableFile, table(0.75));
      p.child.kill('SIGHUP');
      await until(() => p.output().includes('sites reloaded'), 10_000, 'the reload');
      expect(await verified('pointer')).toBe('accepted');

      await writeFile(tableFile, JSON.stringify({ ...scoringTables.v3, threshold: 2 }));
      p.child.kill('SIGHUP');
      await until(() => p.output().includes('sites file not reloaded'), 10_000, 'the refused reload');
      expect(p.output()).toContain('is not a scoring table: threshold: Expected number to be less or equal to 1');
      // Still the flat table at 0.75: v3 (the default) would refuse this script, which sends no keyups.
      expect(await verified('keyboard')).toBe('accepted');
    } finally {
      p.killAll();
    }
  });

  it('SIGHUP reloads the sites file without dropping a request; a broken file keeps the sites in service', async () => {
    const file = path.join(dir, 'sites.json');
    await writeFile(file, siteFile({ width: 6, height: 5 }));
    const p = startProcess(process.execPath, [BIN], { env: { PORT: '0', HOST: '127.0.0.1', SIGNING_SECRET: SECRET, SITES_FILE: file } });
    const origin = { origin: 'http://127.0.0.1' };
    try {
      await until(() => READY.test(p.output()), 20_000, 'the ready line');
      const url = READY.exec(p.output())![1]!;
      expect(p.output()).toContain(`1 site(s) from ${file}: local`);
      const challenge = (siteKey = 'local') => postJson(`${url}/challenge`, { site_key: siteKey }, origin);
      expect((await challenge()).body).toMatchObject({ maze_width: 6, maze_height: 5 });
      expect((await challenge('blog')).body.error_code).toBe('unknown_site_key');

      // Requests keep flowing through both reloads; every one must be answered 200.
      let stop = false;
      const statuses: number[] = [];
      const load = (async () => {
        while (!stop) statuses.push((await challenge()).status);
      })();

      await writeFile(file, siteFile({ width: 9, height: 7 }, { blog: { hostnames: ['127.0.0.1'], secret: 'b'.repeat(40) } }));
      p.child.kill('SIGHUP');
      await until(() => p.output().includes('sites reloaded'), 10_000, 'the reload');
      expect((await challenge()).body).toMatchObject({ maze_width: 9, maze_height: 7 });
      expect((await challenge('blog')).status).toBe(200);

      await writeFile(file, '{"sites": {"local": ');
      p.child.kill('SIGHUP');
      await until(() => p.output().includes('sites file not reloaded'), 10_000, 'the refused reload');
      expect(p.output()).toContain('not valid JSON');
      expect((await challenge()).body).toMatchObject({ maze_width: 9, maze_height: 7 });
      expect((await challenge('blog')).status).toBe(200);

      stop = true;
      await load;
      expect(statuses.length).toBeGreaterThan(10);
      expect(statuses.every((s) => s === 200)).toBe(true);
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    } finally {
      p.killAll();
    }
  });
});
