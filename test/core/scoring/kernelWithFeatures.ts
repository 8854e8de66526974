import { openKernel, type CalibrationKernel } from '../../../calibration/samples.js';

/** The built kernel (build/kernel.wasm) with its feature export. */
export function kernelWithFeatures(): Promise<CalibrationKernel> {
  return openKernel(new URL('../../../build/kernel.wasm', import.meta.url));
}
