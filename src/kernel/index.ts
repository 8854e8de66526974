export * from './types.js';
export { loadKernel } from './loadKernel.js';
export { createKernel, kernelFromInstance } from './createKernel.js';
export { packEvents, eventCode } from './packEvents.js';
export { WasmKernel, type KernelExports } from './wasmKernel.js';
export { FEATURE_NAMES, type FeatureName } from './features.js';
