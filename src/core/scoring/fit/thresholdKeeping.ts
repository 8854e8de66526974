/** Share of the people a fitted threshold keeps: the calibration's and a site fit's. */
export const PEOPLE_KEPT = 0.99;
/** Highest threshold a fit sets: above it, a score of one half would be refused. */
const HIGHEST_FITTED_THRESHOLD = 0.5;

/**
 * The highest threshold, in steps of 0.01 from HIGHEST_FITTED_THRESHOLD down to 0.01, at which
 * `keptAt` (the share of people a threshold accepts, non-increasing in it) is at least `keep`;
 * 0.01 when none is.
 */
export function thresholdKeeping(keep: number, keptAt: (threshold: number) => number): number {
  for (let hundredths = Math.round(HIGHEST_FITTED_THRESHOLD * 100); hundredths > 1; hundredths--) {
    if (keptAt(hundredths / 100) >= keep) return hundredths / 100;
  }
  return 0.01;
}
