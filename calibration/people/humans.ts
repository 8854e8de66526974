import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** One recorded segment of real pointer movement (../shared/data README). */
export interface HumanSegment {
  id: string;
  source: string;
  user: string;
  session: string;
  points: { x: number; y: number; t: number }[];
}

/** Consecutive segments of one user joined end to end: the material laid onto one maze. */
export interface HumanTrace {
  user: string;
  source: string;
  /** Screen pixels, ms from the start; (ax, ay) and (bx, by) are the ends of the point's own segment. */
  points: { x: number; y: number; t: number; ax: number; ay: number; bx: number; by: number }[];
  pathPx: number;
}

export function loadSegments(file: string): HumanSegment[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as HumanSegment);
}

/** Deterministic split by user (never by segment): about half calibrates, the rest is held out. */
export function isHeldOut(source: string, user: string): boolean {
  return createHash('sha256').update(`${source}:${user}`).digest()[0]! % 2 === 1;
}

const MIN_PATH_PX = 600;
const MAX_SEGMENTS = 5;

/**
 * Joins consecutive segments of a session until the path reaches MIN_PATH_PX, so a trace
 * spans a maze of ordinary size. Each segment starts where the previous click was.
 */
export function composeTraces(segments: readonly HumanSegment[]): HumanTrace[] {
  const traces: HumanTrace[] = [];
  let cur: HumanTrace | null = null;
  let count = 0;
  let key = '';
  const flush = () => {
    if (cur && cur.points.length >= 4 && cur.pathPx > 0) traces.push(cur);
    cur = null;
    count = 0;
  };
  for (const seg of segments) {
    const k = `${seg.source}|${seg.user}|${seg.session}`;
    if (k !== key) flush();
    key = k;
    const pts = seg.points;
    if (pts.length < 2) continue;
    const a = pts[0]!,
      b = pts[pts.length - 1]!;
    if (!cur) cur = { user: `${seg.source}:${seg.user}`, source: seg.source, points: [], pathPx: 0 };
    const trace: HumanTrace = cur;
    const last = trace.points[trace.points.length - 1];
    const t0 = last ? last.t : 0;
    const first = last ? 1 : 0;
    // Later segments are translated so that the joined path is continuous.
    const dx = last ? last.x - a.x : 0,
      dy = last ? last.y - a.y : 0;
    let prev = last;
    for (let i = first; i < pts.length; i++) {
      const p = pts[i]!;
      const q = { x: p.x + dx, y: p.y + dy, t: t0 + p.t, ax: a.x + dx, ay: a.y + dy, bx: b.x + dx, by: b.y + dy };
      if (prev) trace.pathPx += Math.hypot(q.x - prev.x, q.y - prev.y);
      trace.points.push(q);
      prev = q;
    }
    count++;
    if (trace.pathPx >= MIN_PATH_PX || count >= MAX_SEGMENTS) flush();
  }
  flush();
  return traces;
}
