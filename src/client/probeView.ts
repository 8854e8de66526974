// The colour-tap probe drawn over the maze: one button per probe cell, each with its colour,
// a shape and a written name, so the target never depends on seeing colour.
import type { Probe } from './api.js';
import { MARGIN, type Surface } from './geometry.js';

interface Style {
  name: string;
  shape: string;
  fill: string;
}
const RED: Style = { name: 'red', shape: 'circle', fill: '#dc2626' };
const BLUE: Style = { name: 'blue', shape: 'square', fill: '#2563eb' };
const GREEN: Style = { name: 'green', shape: 'triangle', fill: '#16a34a' };
const YELLOW: Style = { name: 'yellow', shape: 'star', fill: '#eab308' };
const PURPLE: Style = { name: 'purple', shape: 'diamond', fill: '#9333ea' };
const ORANGE: Style = { name: 'orange', shape: 'hexagon', fill: '#ea580c' };

/**
 * Name, shape and swatch per colour a service sends (lowercase hex): Ariadne's, and the
 * reference server's other yellow and purple. Other colours get a shape by position, and their
 * own text as name.
 */
const STYLE: Record<string, Style> = {
  '#ef4444': RED,
  '#3b82f6': BLUE,
  '#22c55e': GREEN,
  '#f59e0b': YELLOW,
  '#eab308': YELLOW,
  '#8b5cf6': PURPLE,
  '#a855f7': PURPLE,
  '#f97316': ORANGE,
};
const SHAPES = ['circle', 'square', 'triangle', 'star', 'diamond', 'hexagon'];
const GLYPH: Record<string, string> = { circle: '●', square: '■', triangle: '▲', star: '★', diamond: '◆', hexagon: '⬢' };

export interface ProbeNames {
  colors?: Record<string, string>;
  shapes?: Record<string, string>;
}

function styleOf(color: string, index: number): Style {
  return STYLE[color.toLowerCase()] ?? { name: color, shape: SHAPES[index % SHAPES.length]!, fill: color };
}

const colorName = (style: Style, names: ProbeNames): string => names.colors?.[style.name] ?? style.name;

/** "red circle": what the instruction and each button's accessible name say. */
export function probeLabel(probe: Probe, color: string, names: ProbeNames = {}): string {
  const index = probe.cells.findIndex((c) => c.color === color);
  const style = styleOf(color, Math.max(0, index));
  return `${colorName(style, names)} ${names.shapes?.[style.shape] ?? style.shape}`;
}

/** Builds the probe layer; `onTap` gets the grid cell of the button pressed. */
export function probeLayer(
  probe: Probe,
  s: Surface,
  instruction: string,
  names: ProbeNames,
  onTap: (cell: { x: number; y: number }) => void,
): HTMLElement {
  const layer = document.createElement('div');
  layer.className = 'probe';
  layer.setAttribute('role', 'group');
  layer.setAttribute('aria-label', instruction);
  const banner = document.createElement('p');
  banner.className = 'probe-instruction';
  banner.textContent = instruction;
  layer.append(banner);
  probe.cells.forEach((c, i) => {
    const style = styleOf(c.color, i);
    const { shape, fill } = style;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'probe-cell';
    b.style.left = `${((MARGIN + c.x * s.cell) / s.width) * 100}%`;
    b.style.top = `${((MARGIN + c.y * s.cell) / s.height) * 100}%`;
    b.style.width = `${(s.cell / s.width) * 100}%`;
    b.style.height = `${(s.cell / s.height) * 100}%`;
    b.setAttribute('aria-label', probeLabel(probe, c.color, names));
    b.dataset.x = String(c.x);
    b.dataset.y = String(c.y);
    const glyph = document.createElement('span');
    glyph.className = 'glyph';
    glyph.style.color = fill;
    glyph.textContent = GLYPH[shape] ?? '●';
    glyph.setAttribute('aria-hidden', 'true');
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = colorName(style, names);
    name.setAttribute('aria-hidden', 'true');
    b.append(glyph, name);
    b.addEventListener('click', () => onTap({ x: c.x, y: c.y }), { once: true });
    layer.append(b);
  });
  return layer;
}
