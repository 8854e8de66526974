// Behavioural features of a trace (packed events at EVENTS), in maze-cell units and seconds.
// The names and order of the slots are mirrored in src/kernel/features.ts.
import { CODE_DOWN, CODE_KEYDOWN, CODE_MOVE } from './geometry';
import { EVENTS, EVENT_BYTES, MAX_EVENTS } from './memory';
import { MAX_SIDE, MIN_SIDE, WALL_E, WALL_N, WALL_S, WALL_W, generateMaze, wallAt } from './maze';

/** Feature slots, then FINGERPRINT_SIZE samples of the trace's shape (two curves of SHAPE_POINTS). */
export const FEATURE_COUNT: i32 = 36;
const SHAPE_POINTS: i32 = 24;
export const FINGERPRINT_SIZE: i32 = 2 * SHAPE_POINTS;
const OUT: usize = memory.data((FEATURE_COUNT + FINGERPRINT_SIZE) << 3, 16);

/** Resampling step (s): coarser than every capture rate seen (10 to 33 ms), so rates compare. */
const STEP: f64 = 0.04;
/**
 * Most resampled points per trace (about 87 min at STEP): timestamps are client data, and a
 * trace claiming a huge duration must cost bounded work, not hang the caller.
 */
const MAX_SAMPLES: i32 = 1 << 17;
/** Gaps longer than this (s) mean the pointer rested: hold the position, then move. */
const REST_GAP: f64 = 0.1;
/** Speed (cells/s) under which the pointer counts as resting. */
const PAUSE_SPEED: f64 = 0.3;
/** Shortest rest counted as a pause (s). */
const PAUSE_MIN: f64 = 0.12;
/** Speed (cells/s) that marks the onset of movement and a sub-movement peak. */
const MOVE_SPEED: f64 = 1.0;
/** Turning angles are only measured between steps at least this fast (cells/s). */
const TURN_SPEED: f64 = 0.5;
/**
 * Speed (cells/s) above which consecutive raw events' speeds are compared for roughness (below
 * it, whole-pixel rounding dominates the step).
 */
const ROUGH_SPEED: f64 = 3.0;
/** Distance (cells) from the corridor centre-line that counts as riding it. */
const RAIL: f64 = 0.03;
/** Bins of the interval histogram: 1 ms each, the last one for everything longer. */
const DT_BINS: i32 = 128;
const ANGLE_BINS: i32 = 16;
const DT_HIST: usize = memory.data(DT_BINS << 2, 16);
const ANGLE_HIST: usize = memory.data(ANGLE_BINS << 2, 16);

export function featuresPtr(): usize {
  return OUT;
}

@inline function put(slot: i32, v: f64): void {
  store<f64>(OUT + (<usize>slot << 3), v);
}

@inline function isPrimary(code: f64, keyboard: bool): bool {
  return keyboard ? code == CODE_KEYDOWN : code == CODE_MOVE || code == CODE_DOWN;
}

@inline function finite(v: f64): bool {
  return v - v == 0.0;
}

/** Entropy (bits) of a histogram of `total` counts. */
function entropy(hist: usize, bins: i32, total: f64): f64 {
  if (total <= 0.0) return 0.0;
  let h: f64 = 0.0;
  for (let i = 0; i < bins; i++) {
    const c = <f64>load<u32>(hist + (<usize>i << 2));
    if (c > 0.0) {
      const p = c / total;
      h -= p * Math.log2(p);
    }
  }
  return h;
}

/** Distance (cells) from local offset (u, v) around a cell centre to the centre-lines of its open sides. */
function corridorDistance(cell: i32, u: f64, v: f64): f64 {
  const walls = wallAt(cell);
  let best: f64 = Infinity;
  const au = Math.abs(u), av = Math.abs(v);
  // A centre-line half-segment along +axis: distance is |cross| past the centre, radial before it.
  if ((walls & WALL_E) == 0) best = Math.min(best, u >= 0.0 ? av : Math.sqrt(u * u + v * v));
  if ((walls & WALL_W) == 0) best = Math.min(best, u <= 0.0 ? av : Math.sqrt(u * u + v * v));
  if ((walls & WALL_S) == 0) best = Math.min(best, v >= 0.0 ? au : Math.sqrt(u * u + v * v));
  if ((walls & WALL_N) == 0) best = Math.min(best, v <= 0.0 ? au : Math.sqrt(u * u + v * v));
  return best == Infinity ? Math.sqrt(u * u + v * v) : best;
}

// Streaming state of the resampled series.
let rCount: i32 = 0;
let rx: f64 = 0, ry: f64 = 0;
let vx: f64 = 0, vy: f64 = 0, lastSpeed: f64 = 0;
let ax: f64 = 0, ay: f64 = 0;
let sSum: f64 = 0, sSq: f64 = 0, sMax: f64 = 0, sLag: f64 = 0;
let aSum: f64 = 0, aSq: f64 = 0, aN: f64 = 0;
let jSum: f64 = 0, jN: f64 = 0;
let resampledPath: f64 = 0;
let turnSum: f64 = 0, turnN: f64 = 0, turnPath: f64 = 0;
let pauseRun: f64 = 0, pauseCount: f64 = 0, pauseTime: f64 = 0;
let onset: f64 = -1;
let peakMax: f64 = 0, valleyMin: f64 = 0, rising: bool = true, peaks: f64 = 0;
// Sub-movement timing: when the current one began (its valley; < 0 before the first valley),
// peaked and bottomed out; its rise's share of its duration, and the intervals between peaks.
let riseStart: f64 = -1, peakTime: f64 = 0, valleyTime: f64 = 0, lastPeak: f64 = -1;
let riseShareSum: f64 = 0, riseShareN: f64 = 0, peakGapSum: f64 = 0, peakGapSq: f64 = 0, peakGapN: f64 = 0;

function resetStream(): void {
  rCount = 0;
  rx = ry = vx = vy = lastSpeed = ax = ay = 0;
  sSum = sSq = sMax = sLag = aSum = aSq = aN = jSum = jN = resampledPath = 0;
  turnSum = turnN = turnPath = pauseRun = pauseCount = pauseTime = peaks = 0;
  onset = -1;
  peakMax = valleyMin = 0;
  rising = true;
  riseStart = lastPeak = -1;
  peakTime = valleyTime = riseShareSum = riseShareN = peakGapSum = peakGapSq = peakGapN = 0;
  memory.fill(ANGLE_HIST, 0, <usize>ANGLE_BINS << 2);
}

function closePause(): void {
  if (pauseRun >= PAUSE_MIN - 1e-9) {
    pauseCount += 1.0;
    pauseTime += pauseRun;
  }
  pauseRun = 0;
}

/** Feeds one resampled point at time `elapsed` (s) since the first event. */
function feed(x: f64, y: f64, elapsed: f64): void {
  if (rCount > 0) {
    const dx = x - rx, dy = y - ry;
    const nvx = dx / STEP, nvy = dy / STEP;
    const speed = Math.sqrt(nvx * nvx + nvy * nvy);
    resampledPath += speed * STEP;
    sSum += speed;
    sSq += speed * speed;
    if (speed > sMax) sMax = speed;
    if (rCount > 1) {
      sLag += speed * lastSpeed;
      const nax = (nvx - vx) / STEP, nay = (nvy - vy) / STEP;
      const acc = Math.sqrt(nax * nax + nay * nay);
      aSum += acc;
      aSq += acc * acc;
      aN += 1.0;
      if (rCount > 2) {
        const jx = (nax - ax) / STEP, jy = (nay - ay) / STEP;
        jSum += Math.sqrt(jx * jx + jy * jy);
        jN += 1.0;
      }
      ax = nax;
      ay = nay;
      if (speed > TURN_SPEED && lastSpeed > TURN_SPEED) {
        const angle = Math.atan2(vx * nvy - vy * nvx, vx * nvx + vy * nvy);
        turnSum += Math.abs(angle);
        turnN += 1.0;
        turnPath += speed * STEP;
        let bin = <i32>Math.floor((angle + Math.PI) / (2.0 * Math.PI) * <f64>ANGLE_BINS);
        bin = bin < 0 ? 0 : bin >= ANGLE_BINS ? ANGLE_BINS - 1 : bin;
        const slot = ANGLE_HIST + (<usize>bin << 2);
        store<u32>(slot, load<u32>(slot) + 1);
      }
    }
    if (speed < PAUSE_SPEED) pauseRun += STEP;
    else closePause();
    if (onset < 0.0 && speed >= MOVE_SPEED) onset = elapsed - STEP;
    // Sub-movements: speed peaks with hysteresis, so jitter does not count as a peak.
    // A sub-movement runs from one valley to the next; its rise is valley to peak.
    if (rising) {
      if (speed > peakMax) {
        peakMax = speed;
        peakTime = elapsed;
      }
      if (peakMax >= MOVE_SPEED && speed < 0.7 * peakMax) {
        peaks += 1.0;
        rising = false;
        valleyMin = speed;
        valleyTime = elapsed;
        if (lastPeak >= 0.0) {
          const gap = peakTime - lastPeak;
          peakGapSum += gap;
          peakGapSq += gap * gap;
          peakGapN += 1.0;
        }
        lastPeak = peakTime;
      }
    } else {
      if (speed < valleyMin) {
        valleyMin = speed;
        valleyTime = elapsed;
      }
      if (speed > 1.4 * valleyMin + 0.5) {
        if (riseStart >= 0.0 && valleyTime > riseStart) {
          riseShareSum += (peakTime - riseStart) / (valleyTime - riseStart);
          riseShareN += 1.0;
        }
        riseStart = valleyTime;
        rising = true;
        peakMax = speed;
        peakTime = elapsed;
      }
    }
    vx = nvx;
    vy = nvy;
    lastSpeed = speed;
  }
  rx = x;
  ry = y;
  rCount++;
}

/**
 * Computes the features of `count` packed events over the maze with the canvas of `cellSize`
 * (kernel.md section 3). Keydown events are the trace when they outnumber pointer events.
 * Writes FEATURE_COUNT values then FINGERPRINT_SIZE shape samples at featuresPtr(); returns
 * FEATURE_COUNT, or -1 for bad parameters.
 */
export function features(count: i32, seed: u32, w: i32, h: i32, d: f64, cellSize: f64): i32 {
  if (count < 0 || count > MAX_EVENTS) return -1;
  if (w < MIN_SIDE || w > MAX_SIDE || h < MIN_SIDE || h > MAX_SIDE) return -1;
  if (!(cellSize > 0.0 && cellSize <= 1000.0)) return -1;
  const solutionLen = generateMaze(seed, w, h, d);
  if (solutionLen < 0) return -1;
  memory.fill(OUT, 0, <usize>(FEATURE_COUNT + FINGERPRINT_SIZE) << 3);
  memory.fill(DT_HIST, 0, <usize>DT_BINS << 2);
  resetStream();

  let pointers: i32 = 0, keys: i32 = 0;
  for (let i = 0; i < count; i++) {
    const code = load<f64>(EVENTS + <usize>i * EVENT_BYTES, 24);
    if (code == CODE_MOVE || code == CODE_DOWN) pointers++;
    else if (code == CODE_KEYDOWN) keys++;
  }
  const keyboard = keys > pointers;
  const fw = <f64>w, fh = <f64>h;
  // Canvas fraction to cells: the maze starts 20 px in, on a canvas W*cell + 40 by H*cell + 64.
  const kx = keyboard ? fw : (fw * cellSize + 40.0) / cellSize;
  const ky = keyboard ? fh : (fh * cellSize + 64.0) / cellSize;
  const ox = keyboard ? 0.0 : 20.0 / cellSize;

  let n: f64 = 0, t0: f64 = 0, tPrev: f64 = 0, msPrev: f64 = 0, x0: f64 = 0, y0: f64 = 0, px: f64 = 0, py: f64 = 0;
  let path: f64 = 0;
  let dtN: f64 = 0, dt1: f64 = 0, dt2: f64 = 0, dt3: f64 = 0, dt4: f64 = 0, dtZero: f64 = 0, dtMax: f64 = 0;
  let backwards: f64 = 0;
  let rawSpeed: f64 = -1, rawStep: f64 = 0, roughSum: f64 = 0, stepRoughSum: f64 = 0, roughN: f64 = 0;
  let devSum: f64 = 0, devSq: f64 = 0, onRail: f64 = 0, outside: f64 = 0;
  let sampleIndex: i32 = 0;
  for (let i = 0; i < count; i++) {
    const p = EVENTS + <usize>i * EVENT_BYTES;
    const code = load<f64>(p, 24);
    if (!isPrimary(code, keyboard)) continue;
    const x = load<f64>(p) * kx - ox, y = load<f64>(p, 8) * ky - ox;
    const tMs = load<f64>(p, 16);
    const t = tMs / 1000.0;
    if (!(finite(x) && finite(y) && finite(t))) continue;
    // Corridor deviation, measured in the cell under the point.
    if (x < 0.0 || y < 0.0 || x >= fw || y >= fh) outside += 1.0;
    else {
      const cx = <i32>Math.floor(x), cy = <i32>Math.floor(y);
      const dev = corridorDistance(cy * w + cx, x - <f64>cx - 0.5, y - <f64>cy - 0.5);
      devSum += dev;
      devSq += dev * dev;
      if (dev <= RAIL) onRail += 1.0;
    }
    if (n == 0.0) {
      t0 = tPrev = t;
      msPrev = tMs;
      x0 = px = x;
      y0 = py = y;
      feed(x, y, 0.0);
      sampleIndex = 1;
      n = 1.0;
      continue;
    }
    n += 1.0;
    const dt = t - tPrev;
    if (dt < 0.0) {
      backwards += 1.0;
      continue;
    }
    const ms = tMs - msPrev;
    dtN += 1.0;
    dt1 += ms;
    dt2 += ms * ms;
    dt3 += ms * ms * ms;
    dt4 += ms * ms * ms * ms;
    if (ms == 0.0) dtZero += 1.0;
    if (dt > dtMax) dtMax = dt;
    const bin = ms >= <f64>(DT_BINS - 1) ? DT_BINS - 1 : <i32>ms;
    store<u32>(DT_HIST + (<usize>bin << 2), load<u32>(DT_HIST + (<usize>bin << 2)) + 1);
    const step = Math.sqrt((x - px) * (x - px) + (y - py) * (y - py));
    path += step;
    // Event-to-event speed roughness: a hand's sensor reports reach the page unevenly (report
    // and frame clocks beat, timestamps are quantised), so consecutive speeds differ much more
    // than a curve sampled by a script. The steps alone vary as much for a hand; for a script
    // that jitters only its dispatch times, the speeds vary but the steps do not.
    const v = dt > 0.0 ? step / dt : -1.0;
    if (v > ROUGH_SPEED && rawSpeed > ROUGH_SPEED) {
      // |a - b| / (a + b): tanh of half |ln(a / b)|, without a logarithm per event.
      roughSum += Math.abs(v - rawSpeed) / (v + rawSpeed);
      stepRoughSum += Math.abs(step - rawStep) / (step + rawStep);
      roughN += 1.0;
    }
    rawSpeed = v;
    rawStep = step;
    // Linear resampling; after a rest gap the point is held, then moves in the last REST_GAP/2.
    const from = dt > REST_GAP ? t - REST_GAP * 0.5 : tPrev;
    const span = t - from;
    // Sample times from an integer index, so long traces do not drift off the grid.
    while (sampleIndex < MAX_SAMPLES && <f64>sampleIndex * STEP <= t - t0 + 1e-9) {
      const ts = t0 + <f64>sampleIndex * STEP;
      const f = ts <= from || span <= 0.0 ? 0.0 : Math.min(1.0, (ts - from) / span);
      feed(px + (x - px) * f, py + (y - py) * f, <f64>sampleIndex * STEP);
      sampleIndex++;
    }
    tPrev = t;
    msPrev = tMs;
    px = x;
    py = y;
  }

  const duration = tPrev - t0;
  closePause();
  const m = <f64>(rCount - 1);
  const sMean = m > 0.0 ? sSum / m : 0.0;
  const sVar = m > 0.0 ? Math.max(0.0, sSq / m - sMean * sMean) : 0.0;
  const aMean = aN > 0.0 ? aSum / aN : 0.0;
  const aVar = aN > 0.0 ? Math.max(0.0, aSq / aN - aMean * aMean) : 0.0;
  const dtMean = dtN > 0.0 ? dt1 / dtN : 0.0;
  const dtVar = dtN > 0.0 ? Math.max(0.0, dt2 / dtN - dtMean * dtMean) : 0.0;
  const dtM4 = dtN > 0.0 ? dt4 / dtN - 4.0 * dtMean * dt3 / dtN + 6.0 * dtMean * dtMean * dt2 / dtN - 3.0 * dtMean * dtMean * dtMean * dtMean : 0.0;
  const straight = Math.sqrt((px - x0) * (px - x0) + (py - y0) * (py - y0));
  // Optimal efficiency: start-to-exit centre distance over the solution polyline (cells).
  const optimal = Math.sqrt((fw - 1.0) * (fw - 1.0) + (fh - 1.0) * (fh - 1.0)) / <f64>(solutionLen - 1);
  const inside = n - outside;

  put(0, n);
  put(1, duration);
  put(2, <f64>pointers);
  put(3, <f64>keys);
  put(4, path);
  put(5, path > 0.0 ? straight / path / optimal : 0.0);
  put(6, dtMean > 0.0 ? Math.sqrt(dtVar) / dtMean : 0.0);
  put(7, entropy(DT_HIST, DT_BINS, dtN));
  put(8, dtVar > 0.0 ? dtM4 / (dtVar * dtVar) : 0.0);
  put(9, dtN > 0.0 ? dtZero / dtN : 0.0);
  put(10, dtMax);
  put(11, sMean);
  put(12, sMean > 0.0 ? Math.sqrt(sVar) / sMean : 0.0);
  put(13, sMean > 0.0 ? sMax / sMean : 0.0);
  put(14, sMean > 0.0 ? aMean * STEP / sMean : 0.0);
  // Rounding noise of a constant-speed trace is not acceleration.
  put(15, aMean * STEP > 1e-9 * sMean ? Math.sqrt(aVar) / aMean : 0.0);
  put(16, sMean > 0.0 && jN > 0.0 ? jSum / jN * STEP * STEP / sMean : 0.0);
  // Lag-1 autocorrelation of the speed series, from running sums.
  put(17, sVar > 0.0 && m > 1.0 ? (sLag / (m - 1.0) - sMean * sMean) / sVar : 0.0);
  put(18, turnPath > 0.0 ? turnSum / turnPath : 0.0);
  put(19, turnN > 0.0 ? turnSum / turnN : 0.0);
  put(20, turnN > 0.0 ? entropy(ANGLE_HIST, ANGLE_BINS, turnN) : 0.0);
  put(21, pauseCount);
  put(22, duration > 0.0 ? pauseTime / duration : 0.0);
  put(23, onset < 0.0 ? duration : onset);
  put(24, duration > 0.0 ? peaks / duration : 0.0);
  put(25, peaks);
  put(26, inside > 0.0 ? devSum / inside : 0.0);
  put(27, inside > 0.0 ? Math.sqrt(Math.max(0.0, devSq / inside - (devSum / inside) * (devSum / inside))) : 0.0);
  put(28, inside > 0.0 ? onRail / inside : 0.0);
  put(29, resampledPath > 0.0 ? path / resampledPath : 0.0);
  put(30, n > 0.0 ? outside / n : 0.0);
  put(31, backwards);
  put(32, roughN > 0.0 ? roughSum / roughN : 0.0);
  put(33, roughN > 0.0 ? stepRoughSum / roughN : 0.0);
  put(34, riseShareN > 0.0 ? riseShareSum / riseShareN : 0.5);
  const gapMean = peakGapN > 0.0 ? peakGapSum / peakGapN : 0.0;
  put(35, gapMean > 0.0 ? Math.sqrt(Math.max(0.0, peakGapSq / peakGapN - gapMean * gapMean)) / gapMean : 0.0);
  if (duration > 0.0 && path > 0.0) shape(count, keyboard, kx, ky, ox, t0, duration, path, n);
  return FEATURE_COUNT;
}

/**
 * Fingerprint, two curves sampled at SHAPE_POINTS evenly spaced fractions: the fraction of the
 * duration elapsed at that fraction of the events, then the fraction of the path covered at that
 * fraction of the duration. Both ignore shifting, scaling and uniform re-timing; the first also
 * ignores the maze a trace is laid on.
 */
function shape(count: i32, keyboard: bool, kx: f64, ky: f64, ox: f64, t0: f64, duration: f64, total: f64, n: f64): void {
  let covered: f64 = 0, px: f64 = 0, py: f64 = 0, tPrev: f64 = t0;
  let seen: i32 = 0;
  let k: i32 = 0, e: i32 = 0;
  for (let i = 0; i < count; i++) {
    const p = EVENTS + <usize>i * EVENT_BYTES;
    const code = load<f64>(p, 24);
    if (!isPrimary(code, keyboard)) continue;
    const x = load<f64>(p) * kx - ox, y = load<f64>(p, 8) * ky - ox;
    const t = load<f64>(p, 16) / 1000.0;
    if (!(finite(x) && finite(y) && finite(t))) continue;
    while (e < SHAPE_POINTS && <f64>seen >= Math.round((n - 1.0) * (<f64>e + 0.5) / <f64>SHAPE_POINTS)) {
      put(FEATURE_COUNT + e, Math.min(1.0, Math.max(0.0, (t - t0) / duration)));
      e++;
    }
    seen++;
    if (seen == 1) {
      px = x;
      py = y;
      continue;
    }
    if (t < tPrev) continue;
    const step = Math.sqrt((x - px) * (x - px) + (y - py) * (y - py));
    while (k < SHAPE_POINTS) {
      const target = t0 + duration * (<f64>k + 0.5) / <f64>SHAPE_POINTS;
      if (target > t) break;
      const f = t > tPrev ? (target - tPrev) / (t - tPrev) : 1.0;
      put(FEATURE_COUNT + SHAPE_POINTS + k, (covered + step * f) / total);
      k++;
    }
    covered += step;
    tPrev = t;
    px = x;
    py = y;
  }
}
