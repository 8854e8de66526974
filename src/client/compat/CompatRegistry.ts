// The widgets of one compatible API, found by id or by container as the services' calls allow.
import { type Params, dataParams } from './callBack.js';
import { type Flavour, CompatWidget } from './CompatWidget.js';

export class CompatRegistry {
  private readonly widgets: CompatWidget[] = [];
  private rendered = 0;

  constructor(
    readonly flavour: Flavour,
    /** Which widget a call without an id means: reCAPTCHA and hCaptcha take the first, Turnstile the last. */
    private readonly byDefault: 'first' | 'last',
  ) {}

  /** An element given itself, by id, or (Turnstile) by CSS selector. */
  static element(ref: unknown): HTMLElement | null {
    if (ref instanceof HTMLElement) return ref;
    if (typeof ref !== 'string' || !ref) return null;
    const byId = document.getElementById(ref.startsWith('#') ? ref.slice(1) : ref);
    if (byId) return byId;
    try {
      return document.querySelector<HTMLElement>(ref);
    } catch {
      return null;
    }
  }

  /** Renders into `container` with its data-* attributes overridden by `params`. */
  render(container: HTMLElement, params: Params): CompatWidget {
    if (this.widgets.some((w) => w.container === container)) throw new Error('ariadne: a widget is already rendered in this element');
    const n = this.rendered++;
    const widget = new CompatWidget(this.flavour.widgetId(n), container, { ...dataParams(container), ...params }, this.flavour, n);
    this.widgets.push(widget);
    return widget;
  }

  /** Renders into the element `ref` names (an element, an id, a selector). */
  renderAt(ref: unknown, params: Params = {}): CompatWidget {
    const el = CompatRegistry.element(ref);
    if (!el) throw new Error(`ariadne: no element ${String(ref)} to render into`);
    return this.render(el, params);
  }

  /** The calls the three services share, by widget id or container (the default widget without one). */
  commonApi() {
    return {
      render: (container: unknown, params?: Params): string | number => this.renderAt(container, params).id,
      getResponse: (id?: unknown): string => this.find(id)?.getResponse() ?? '',
      reset: (id?: unknown): void => this.find(id)?.reset(),
      remove: (id?: unknown): void => this.remove(id),
    };
  }

  /** Every element with the flavour's class that has no widget yet. */
  renderAll(): void {
    for (const el of Array.from(document.getElementsByClassName(this.flavour.className))) {
      if (el instanceof HTMLElement && !this.widgets.some((w) => w.container === el)) this.render(el, {});
    }
  }

  /** The widget with this id, or in this container; the default one when `ref` is absent. */
  find(ref?: unknown): CompatWidget | undefined {
    if (ref === undefined || ref === null || ref === '') return this.byDefault === 'first' ? this.widgets[0] : this.widgets.at(-1);
    const byId = this.widgets.find((w) => w.id === ref || String(w.id) === String(ref));
    if (byId) return byId;
    const el = CompatRegistry.element(ref);
    return el ? this.widgets.find((w) => w.container === el) : undefined;
  }

  /** Finds the widget or throws the error the services throw for an unknown id. */
  get(ref?: unknown): CompatWidget {
    const widget = this.find(ref);
    if (!widget) throw new Error(`ariadne: no widget ${ref === undefined ? 'rendered' : `for ${String(ref)}`}`);
    return widget;
  }

  remove(ref?: unknown): void {
    const widget = this.find(ref);
    if (!widget) return;
    widget.remove();
    this.widgets.splice(this.widgets.indexOf(widget), 1);
  }
}
