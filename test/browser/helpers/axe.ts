// axe-core in a page: the violations it finds in the widget, its shadow DOM included.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * axe-core's violations in the `ariadne-maze` of `page`, as `rule (count)`. The script is served
 * from the page's own origin: the demo's CSP allows scripts from 'self' only.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const url = new URL('/test/axe.min.js', page.url()).href;
  await page.route(url, (route) => route.fulfill({ path: AXE, contentType: 'text/javascript' }));
  await page.addScriptTag({ url });
  return page.evaluate(async () => {
    type Rule = { id: string; nodes: unknown[] };
    const axe = (window as unknown as { axe: { run(c: unknown): Promise<{ violations: Rule[]; passes: Rule[] }> } }).axe;
    const r = await axe.run({ include: [['ariadne-maze']] });
    // A run that checked nothing would find nothing: it must have passed rules on the widget.
    if (r.passes.length === 0) return ['no rule ran on the widget'];
    return r.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}
