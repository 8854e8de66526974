import type { Maze, RawEvent } from '../../src/kernel/index.js';
import { SCRIPTED_FAMILIES as SCRIPTED, botEvents } from './scriptedMovers.js';
import type { Rng } from '../random.js';
import { ALL_VARIANTS, DPRS, variantName } from './dispatch.js';
import { ghostCursorEvents } from './ghostCursor.js';
import { heroEmulatorEvents } from './heroEmulator.js';
import { intermittentControlEvents } from './intermittentControl.js';
import { powerLawEvents } from './powerLaw.js';
import { CADENCES } from './sampleMotion.js';
import { submovementEvents } from './submovements.js';
import { windmousePackageEvents } from './windmousePackage.js';

/**
 * A bot family: one tool or one way of writing a mover, in variants (timings, pixel ratios).
 * Leave-one-family-out fitting leaves out all of a family's variants at once, so a re-timing
 * of a tool cannot teach the model that tool.
 */
export interface BotFamily {
  name: string;
  /** A public package the family drives, or undefined for the project's own movers. */
  tool?: string;
  variants: readonly string[];
  events(rng: Rng, maze: Maze, variant: number): Promise<RawEvent[]> | RawEvent[];
}

const toolVariants = ALL_VARIANTS.map(variantName);
const motorVariants = CADENCES.flatMap((c) => DPRS.map((dpr) => ({ c, dpr })));

export const BOT_FAMILIES: readonly BotFamily[] = [
  ...SCRIPTED.map((name): BotFamily => ({ name, variants: ['browser clocks'], events: (rng, maze) => botEvents(name, rng, maze) })),
  {
    name: 'ghost-cursor',
    tool: 'ghost-cursor',
    variants: toolVariants,
    events: (rng, maze, v) => ghostCursorEvents(rng, maze, ALL_VARIANTS[v]!),
  },
  {
    name: 'hero',
    tool: '@ulixee/default-human-emulator',
    variants: toolVariants,
    events: (rng, maze, v) => heroEmulatorEvents(rng, maze, ALL_VARIANTS[v]!),
  },
  {
    name: 'windmouse-npm',
    tool: 'windmouse',
    variants: toolVariants,
    events: (rng, maze, v) => windmousePackageEvents(rng, maze, ALL_VARIANTS[v]!),
  },
  {
    name: 'submovements',
    variants: motorVariants.map(({ c, dpr }) => `${c} ms, dpr ${dpr}`),
    events: (rng, maze, v) => submovementEvents(rng, maze, motorVariants[v]!.c, motorVariants[v]!.dpr),
  },
  {
    name: 'power-law',
    variants: motorVariants.map(({ c, dpr }) => `${c} ms, dpr ${dpr}`),
    events: (rng, maze, v) => powerLawEvents(rng, maze, motorVariants[v]!.c, motorVariants[v]!.dpr),
  },
  // Added with v3 after its features were chosen: a family no feature was written against.
  {
    name: 'intermittent-control',
    variants: motorVariants.map(({ c, dpr }) => `${c} ms, dpr ${dpr}`),
    events: (rng, maze, v) => intermittentControlEvents(rng, maze, motorVariants[v]!.c, motorVariants[v]!.dpr),
  },
];
