import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TABLE_FILE_BYTES } from '../../../src/core/scoring/parseScoringTable.js';
import { scoringTables } from '../../../src/core/scoring/ScoringTable.js';
import { loadSiteTable } from '../../../src/core/sites/loadSiteTable.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ariadne-site-table-'));
  await mkdir(path.join(dir, 'tables'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sitesFile = () => path.join(dir, 'sites.json');
const errorOf = (r: ReturnType<typeof loadSiteTable>) => {
  if (r.ok) throw new Error('expected an error');
  return r.error;
};

describe('loadSiteTable', () => {
  it('reads a table relative to the sites file, or at an absolute path', async () => {
    await writeFile(path.join(dir, 'tables/shop.json'), JSON.stringify(scoringTables.v2));
    expect(loadSiteTable('tables/shop.json', sitesFile())).toEqual({ ok: true, table: scoringTables.v2 });
    expect(loadSiteTable(path.join(dir, 'tables/shop.json'), '/elsewhere/sites.json')).toEqual({ ok: true, table: scoringTables.v2 });
  });

  it('says what is wrong with a missing file, one that is not JSON, and one that is not a scoring table', async () => {
    expect(errorOf(loadSiteTable('tables/none.json', sitesFile()))).toMatch(
      new RegExp(`^${path.join(dir, 'tables/none.json')} cannot be read: ENOENT`),
    );
    await writeFile(path.join(dir, 'tables/broken.json'), '{"version": ');
    expect(errorOf(loadSiteTable('tables/broken.json', sitesFile()))).toContain('broken.json is not a scoring table: not valid JSON');
    const v3 = scoringTables.v3;
    const bad = {
      ...v3,
      threshold: 1.5,
      types: { ...v3.types, mouse: { ...v3.types.mouse, terms: [{ ...v3.types.mouse.terms[0]!, feature: 'mouse_charm', scale: 0 }] } },
    };
    await writeFile(path.join(dir, 'tables/bad.json'), JSON.stringify(bad));
    const error = errorOf(loadSiteTable('tables/bad.json', sitesFile()));
    expect(error).toContain('threshold: Expected number to be less or equal to 1');
    expect(error).toContain('types.mouse.terms.0.feature');
    expect(error).toContain('types.mouse.terms.0.scale: Expected number to be greater than 0');
    await writeFile(path.join(dir, 'tables/extra.json'), JSON.stringify({ ...v3, note: 'typo' }));
    expect(errorOf(loadSiteTable('tables/extra.json', sitesFile()))).toContain('note: Unexpected property');
  });

  it(`reads a file of ${MAX_TABLE_FILE_BYTES} bytes, and refuses one byte more`, async () => {
    const text = JSON.stringify(scoringTables.v3);
    await writeFile(path.join(dir, 'tables/max.json'), text.padEnd(MAX_TABLE_FILE_BYTES, ' '));
    expect(loadSiteTable('tables/max.json', sitesFile()).ok).toBe(true);
    await writeFile(path.join(dir, 'tables/over.json'), text.padEnd(MAX_TABLE_FILE_BYTES + 1, ' '));
    expect(errorOf(loadSiteTable('tables/over.json', sitesFile()))).toContain(`over.json is larger than ${MAX_TABLE_FILE_BYTES} bytes`);
  });
});
