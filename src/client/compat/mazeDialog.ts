// The puzzle of an invisible widget (reCAPTCHA size=invisible, hCaptcha invisible, Turnstile
// execution=execute): a native modal <dialog>, so the browser traps focus, makes the rest of the
// page inert and closes it on Escape. It sits in a shadow root of its own with a constructed
// style sheet, which a page's strict style-src does not block.
import type { AriadneMaze } from '../element.js';

const STYLE = `
dialog { box-sizing: border-box; width: min(440px, calc(100vw - 16px)); max-height: calc(100vh - 16px); padding: 12px; border: 0; border-radius: 10px; background: #fff; overflow: auto; }
dialog::backdrop { background: rgba(15, 23, 42, 0.55); }
.bar { display: flex; justify-content: flex-end; margin: 0 0 6px; }
.close { font: 14px/1.2 system-ui, -apple-system, "Segoe UI", sans-serif; min-height: 36px; padding: 6px 14px; border-radius: 6px; border: 1px solid #52606d; background: #fff; color: #1f2933; cursor: pointer; }
.close:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
`;

export interface MazeDialog {
  /** Closes the dialog without reporting a dismissal (the puzzle was solved, or the widget reset). */
  close(): void;
}

/**
 * Opens `maze` in a modal dialog named `label`, focuses the maze, and calls `dismissed` if the
 * person closes it (Escape or the close button) before `close()` is called. Focus goes back to
 * where it was when the dialog opened.
 */
export function openMazeDialog(maze: AriadneMaze, label: string, closeText: string, dismissed: () => void): MazeDialog {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const host = document.createElement('div');
  const root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(STYLE);
  root.adoptedStyleSheets = [sheet];
  const dialog = document.createElement('dialog');
  dialog.setAttribute('aria-label', label);
  const bar = document.createElement('div');
  bar.className = 'bar';
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'close';
  close.textContent = closeText;
  bar.append(close);
  // The maze comes first, so it is where focus starts and Tab goes on to the close button.
  dialog.append(maze, bar);
  root.append(dialog);
  document.body.append(host);

  let settled = false;
  const finish = () => {
    host.remove();
    if (previous?.isConnected) previous.focus({ preventScroll: true });
  };
  dialog.addEventListener('close', () => {
    const byPerson = !settled;
    settled = true;
    finish();
    if (byPerson) dismissed();
  });
  close.addEventListener('click', () => dialog.close());
  dialog.showModal();
  // The element starts its widget in a microtask after it is connected; focus the maze after it.
  queueMicrotask(() => maze.focusPuzzle());
  return {
    close() {
      if (settled) return;
      settled = true;
      dialog.close();
    },
  };
}
