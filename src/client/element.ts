// <ariadne-maze site-key="..." [session-id] [stable-id] [api-url] [assets-url]>: the widget as
// a custom element. The token goes to a hidden `ariadne-response` field (and the session id to
// `ariadne-session`) in the element's light DOM, so an enclosing form submits them.
import { defaultApiUrl, defaultAssetsUrl } from './base.js';
import type { Texts } from './texts.js';
import { Widget, type WidgetState } from './widget.js';

export const RESPONSE_FIELD = 'ariadne-response';
export const SESSION_FIELD = 'ariadne-session';

/** A random id (a UUID where the browser has randomUUID). */
export function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
}

export interface AriadneCallbacks {
  onVerified?: (token: string) => void;
  onError?: (code: string) => void;
  onExpired?: () => void;
}

export class AriadneMaze extends HTMLElement implements AriadneCallbacks {
  static readonly observedAttributes = ['site-key', 'session-id', 'stable-id', 'api-url', 'assets-url'];
  onVerified?: (token: string) => void;
  onError?: (code: string) => void;
  onExpired?: () => void;
  private widget: Widget | null = null;
  private customTexts: Partial<Texts> | undefined;
  private generatedSession: string | null = null;
  private response: HTMLInputElement | null = null;
  private session: HTMLInputElement | null = null;
  private currentToken = '';
  private pending = false;
  /**
   * Whether the hidden `ariadne-response` and `ariadne-session` fields are written (set before
   * the element is connected). Off for hosts that put the token in fields of their own.
   */
  formFields = true;
  /** The maze's place in the tab order (a `tabindex`); 0, the document order, when unset. */
  puzzleTabIndex: number | undefined;
  /** The action the token carries (set before the element is connected): the compatible APIs' `action`. */
  action: string | undefined;

  get texts(): Partial<Texts> | undefined {
    return this.customTexts;
  }

  set texts(value: Partial<Texts> | undefined) {
    this.customTexts = value;
    this.widget?.setTexts(value);
  }

  /** The token, once verified; empty before and after it expires. */
  get token(): string {
    return this.currentToken;
  }

  get sessionId(): string {
    return this.getAttribute('session-id') || (this.generatedSession ??= randomId());
  }

  get state(): WidgetState {
    return this.widget?.currentState ?? 'loading';
  }

  connectedCallback(): void {
    if (this.formFields) {
      this.response = this.field(RESPONSE_FIELD);
      this.session = this.field(SESSION_FIELD);
    }
    this.restartSoon();
  }

  disconnectedCallback(): void {
    this.widget?.destroy();
    this.widget = null;
  }

  attributeChangedCallback(_name: string, old: string | null, value: string | null): void {
    if (old !== value && this.isConnected && this.widget) this.restartSoon();
  }

  /** Drops the current token and challenge and starts over with a fresh one. */
  reset(): void {
    this.setToken('');
    void this.widget?.load();
  }

  private field(name: string): HTMLInputElement {
    const found = Array.from(this.children).find((c): c is HTMLInputElement => c instanceof HTMLInputElement && c.name === name);
    if (found) return found;
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    this.append(input);
    return input;
  }

  /** Moves the keyboard focus to the maze (once the element is connected and started). */
  focusPuzzle(): void {
    this.widget?.view.canvas.focus({ preventScroll: true });
  }

  private setToken(token: string): void {
    this.currentToken = token;
    if (this.response) this.response.value = token;
  }

  /** Restarts once after the current task, so attributes and properties set together count once. */
  private restartSoon(): void {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      if (this.isConnected) this.start();
    });
  }

  private start(): void {
    this.widget?.destroy();
    this.setToken('');
    const siteKey = this.getAttribute('site-key');
    if (this.session) this.session.value = this.sessionId;
    const assetsUrl = this.getAttribute('assets-url') || defaultAssetsUrl();
    const base = assetsUrl.endsWith('/') ? assetsUrl : `${assetsUrl}/`;
    const apiUrl = (this.getAttribute('api-url') || defaultApiUrl()).replace(/\/+$/, '');
    const stableId = this.getAttribute('stable-id');
    const fire = (type: string, detail?: unknown) =>
      this.dispatchEvent(new CustomEvent(`ariadne-${type}`, { detail, bubbles: true, composed: true }));
    this.widget = new Widget(
      this,
      {
        siteKey: siteKey ?? '',
        sessionId: this.sessionId,
        apiUrl,
        assetsUrl: new URL(base, document.baseURI).href,
        ...(stableId ? { stableId } : {}),
        ...(this.action !== undefined ? { action: this.action } : {}),
        ...(this.customTexts ? { texts: this.customTexts } : {}),
      },
      {
        verified: (token) => {
          this.setToken(token);
          fire('verified', { token });
          this.onVerified?.(token);
        },
        error: (code) => {
          this.setToken('');
          fire('error', { code });
          this.onError?.(code);
        },
        expired: () => {
          this.setToken('');
          fire('expired');
          this.onExpired?.();
        },
        state: (state) => fire('state', { state }),
      },
    );
    if (this.puzzleTabIndex !== undefined) this.widget.view.canvas.tabIndex = this.puzzleTabIndex;
    if (!siteKey) return this.widget.showMisconfigured('site-key');
    void this.widget.load();
  }
}

export function defineElement(name = 'ariadne-maze'): void {
  if (!customElements.get(name)) customElements.define(name, class extends AriadneMaze {});
}
