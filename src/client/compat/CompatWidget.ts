// One widget rendered through a compatible API: Ariadne's <ariadne-maze> (or, in an invisible
// mode, a dialog opened on execute()) plus the hidden fields the service's backends read, and
// the service's callbacks. The token in the fields is exactly the one /verify returned; the
// maze's session id is its own random one, which the page never needs.
import { type AriadneMaze, randomId } from '../element.js';
import { defaultTexts } from '../texts.js';
import { TOKEN_LIFETIME_MS } from '../widget.js';
import { type Params, callBack } from './callBack.js';
import { type MazeDialog, openMazeDialog } from './mazeDialog.js';

/** What differs between the services' widgets. */
export interface Flavour {
  /** Class of the elements rendered implicitly (`g-recaptcha`, `h-captcha`, `cf-turnstile`). */
  className: string;
  /** Id of the n-th widget rendered (0-based). */
  widgetId(n: number): string | number;
  /** Hidden fields the token goes to. */
  fieldNames(params: Params): string[];
  fieldTag: 'textarea' | 'input';
  /** No puzzle in the page: it opens in a dialog when execute() is called. */
  invisible(params: Params, container: HTMLElement): boolean;
  /** The callback called when the person closes the dialog unsolved, and its arguments. */
  dismissCallback: string;
  dismissArgs: unknown[];
  /** Arguments of `error-callback` for one of Ariadne's error codes. */
  errorArgs(code: string): unknown[];
}

/** Why a pending execute() promise is rejected. */
export const CLOSED = 'challenge-closed';
export const RESET = 'challenge-reset';

type Field = HTMLInputElement | HTMLTextAreaElement;

/** A button bound to the check: reCAPTCHA's and hCaptcha's invisible widgets on a submit button. */
export const isButton = (el: HTMLElement): boolean =>
  el instanceof HTMLButtonElement || (el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'button'));

export class CompatWidget {
  private token = '';
  private key = '';
  private expired = false;
  private readonly fields: Field[] = [];
  private maze: AriadneMaze | null = null;
  private dialog: MazeDialog | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waiting: { resolve(token: string): void; reject(reason: Error): void }[] = [];
  private readonly cleanup: (() => void)[] = [];

  constructor(
    readonly id: string | number,
    readonly container: HTMLElement,
    readonly params: Params,
    private readonly flavour: Flavour,
    private readonly index: number,
  ) {
    const invisible = flavour.invisible(params, container);
    if (!invisible) {
      this.maze = this.newMaze();
      container.append(this.maze);
    } else if (isButton(container)) {
      // A button carrying the class: its click runs the check, and the callback takes it from
      // there (again with the held token, when a second click comes before it expires).
      const onClick = (e: Event) => {
        e.preventDefault();
        if (this.token) callBack(this.params, 'callback', this.token);
        else void this.execute();
      };
      container.addEventListener('click', onClick);
      this.cleanup.push(() => container.removeEventListener('click', onClick));
    }
    for (const name of flavour.fieldNames(params)) this.addField(name, invisible);
  }

  getResponse(): string {
    return this.token;
  }

  getRespKey(): string {
    return this.key;
  }

  isExpired(): boolean {
    return this.expired;
  }

  /**
   * Resolves with the token once the puzzle is solved (at once if a valid one is held), opening
   * it in a dialog in an invisible mode; rejects with CLOSED if the person closes the dialog.
   * `action` (reCAPTCHA v3's): the token must carry it, so a token held for another is dropped;
   * mazes made from now on carry it (a visible one keeps the action it was made with).
   */
  execute(action?: string): Promise<string> {
    if (action !== undefined && action !== this.params.action) {
      if (this.token) this.clear();
      this.params.action = action;
    }
    if (this.token) return Promise.resolve(this.token);
    const pending = new Promise<string>((resolve, reject) => this.waiting.push({ resolve, reject }));
    // Callers that ignore the promise (reCAPTCHA v2's execute returns nothing) see no
    // unhandled rejection; callers that await it still get the rejection.
    pending.catch(() => undefined);
    if (this.maze && !this.dialog) this.maze.focusPuzzle();
    else if (!this.dialog) this.openDialog();
    return pending;
  }

  /** Drops the token and any open dialog; a visible widget fetches a fresh puzzle. */
  reset(): void {
    this.drop();
    if (this.maze?.isConnected) this.maze.reset();
  }

  remove(): void {
    this.drop();
    this.maze?.remove();
    this.maze = null;
    for (const f of this.fields.splice(0)) f.remove();
    for (const off of this.cleanup.splice(0)) off();
  }

  private drop(): void {
    this.clear();
    this.expired = false;
    this.dialog?.close();
    this.dialog = null;
    this.settle(new Error(RESET));
  }

  private newMaze(): AriadneMaze {
    const el = document.createElement('ariadne-maze') as AriadneMaze;
    el.formFields = false;
    const siteKey = this.params.sitekey;
    if (typeof siteKey === 'string' && siteKey) el.setAttribute('site-key', siteKey);
    // reCAPTCHA v3's execute(key, {action}) and Turnstile's action: carried by the token to siteverify.
    if (typeof this.params.action === 'string') el.action = this.params.action;
    const tabIndex = Number(this.params.tabindex);
    if (this.params.tabindex !== undefined && this.params.tabindex !== '' && Number.isInteger(tabIndex)) el.puzzleTabIndex = tabIndex;
    el.onVerified = (token) => this.solved(token);
    el.onError = (code) => callBack(this.params, 'error-callback', ...this.flavour.errorArgs(code));
    return el;
  }

  private openDialog(): void {
    const maze = this.newMaze();
    callBack(this.params, 'open-callback');
    this.dialog = openMazeDialog(maze, defaultTexts.title, defaultTexts.close, () => this.dismissed());
  }

  /** Closes an open dialog as the person would (hCaptcha's close()). */
  close(): void {
    if (!this.dialog) return;
    this.dialog.close();
    this.dismissed();
  }

  private dismissed(): void {
    this.dialog = null;
    this.settle(new Error(CLOSED));
    callBack(this.params, this.flavour.dismissCallback, ...this.flavour.dismissArgs);
  }

  private solved(token: string): void {
    this.token = token;
    this.key = randomId();
    this.expired = false;
    for (const f of this.fields) f.value = token;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.expire(), TOKEN_LIFETIME_MS);
    this.dialog?.close();
    this.dialog = null;
    this.settle(token);
    callBack(this.params, 'callback', token);
  }

  private expire(): void {
    const old = this.token;
    this.clear();
    this.expired = true;
    callBack(this.params, 'expired-callback', old);
  }

  private clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.token = '';
    this.key = '';
    for (const f of this.fields) f.value = '';
  }

  private settle(outcome: string | Error): void {
    for (const w of this.waiting.splice(0)) {
      if (typeof outcome === 'string') w.resolve(outcome);
      else w.reject(outcome);
    }
  }

  private addField(name: string, invisible: boolean): void {
    const field = document.createElement(this.flavour.fieldTag);
    if (field instanceof HTMLInputElement) field.type = 'hidden';
    else field.hidden = true;
    field.name = name;
    field.id = this.index === 0 ? name : `${name}-${this.id}`;
    this.fields.push(field);
    // Next to a bound button (inside its form), else inside the container.
    if (invisible && isButton(this.container)) this.container.after(field);
    else this.container.append(field);
  }
}
