// The widget's shadow DOM: markup and styles. Focus is always visible, motion is dropped
// under prefers-reduced-motion, and the layout fits a 320 px wide screen.

const STYLE = `
:host { display: block; max-width: 100%; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2933; }
:host([hidden]) { display: none; }
.box { box-sizing: border-box; max-width: 100%; border: 1px solid #cbd2d9; border-radius: 8px; padding: 8px; background: #f8fafc; }
.head { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin: 0 0 6px; }
.title { font-weight: 600; margin: 0; }
.stage { position: relative; width: 100%; }
.stage[hidden], .bar[hidden] { display: none; }
canvas { display: block; width: 100%; height: auto; touch-action: none; border-radius: 4px; background: #fff; cursor: crosshair; }
canvas:focus { outline: none; }
canvas:focus-visible, button:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
.bar { height: 6px; margin: 8px 0 4px; background: #e4e7eb; border-radius: 3px; overflow: hidden; }
.bar > div { height: 100%; width: 0; background: #1d4ed8; transition: width 0.2s linear; }
.status { margin: 4px 0 0; min-height: 1.4em; }
.status.error { color: #b91c1c; font-weight: 600; }
.status.ok { color: #15803d; font-weight: 600; }
.retry, .door { margin-top: 6px; font: inherit; padding: 6px 14px; min-height: 36px; border-radius: 6px; border: 1px solid #1d4ed8; background: #1d4ed8; color: #fff; cursor: pointer; }
.retry[hidden], .door[hidden] { display: none; }
.probe { position: absolute; inset: 0; background: rgba(255, 255, 255, 0.82); border-radius: 4px; }
.probe-instruction { position: absolute; left: 0; right: 0; bottom: 0; margin: 0; padding: 2px 4px; text-align: center; font-weight: 600; background: #fff; }
.probe-cell { position: absolute; box-sizing: border-box; display: flex; flex-direction: column; align-items: center; justify-content: center; padding: 0; margin: 0; border: 2px solid #1f2933; border-radius: 6px; background: #fff; cursor: pointer; overflow: hidden; font: inherit; }
.probe-cell .glyph { font-size: 1.35em; line-height: 1; }
.probe-cell .name { font-size: 9px; line-height: 1.1; color: #1f2933; }
.sr { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }
`;

export interface View {
  root: ShadowRoot;
  box: HTMLElement;
  title: HTMLElement;
  stage: HTMLElement;
  canvas: HTMLCanvasElement;
  bar: HTMLElement;
  barFill: HTMLElement;
  status: HTMLElement;
  retry: HTMLButtonElement;
  /** The passkey door: pass with a returning passkey instead of the maze (sites that open it). */
  door: HTMLButtonElement;
  help: HTMLElement;
}

export function buildView(host: HTMLElement): View {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  // A constructed sheet, not a <style> element: a page whose CSP has no 'unsafe-inline' styles
  // blocks the element, while CSSOM sheets are not subject to style-src.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(STYLE);
  root.adoptedStyleSheets = [sheet];
  root.innerHTML = `<div class="box" role="group" aria-labelledby="title">
  <div class="head"><p class="title" id="title"></p></div>
  <div class="stage"><canvas tabindex="0" role="application" aria-describedby="help status"></canvas></div>
  <div class="bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"><div></div></div>
  <p class="status" id="status" role="status" aria-live="polite" aria-atomic="true"></p>
  <button class="retry" type="button" hidden></button>
  <button class="door" type="button" hidden></button>
  <p class="sr" id="help"></p>
</div>`;
  const q = <T extends Element>(sel: string) => root.querySelector(sel) as T;
  return {
    root,
    box: q('.box'),
    title: q('.title'),
    stage: q('.stage'),
    canvas: q('canvas'),
    bar: q('.bar'),
    barFill: q('.bar > div'),
    status: q('.status'),
    retry: q('.retry'),
    door: q('.door'),
    help: q('#help'),
  };
}
