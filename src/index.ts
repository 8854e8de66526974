/** Library entry: the server, the in-process token check, the embedded store and the kernel. */
export { type Config, type ConfigResult, loadConfig, defaultConfig } from './config.js';
export { type AriadneServer, type ServerOptions, createServer } from './http/createServer.js';
export { type RunningServer, startServer } from './http/startServer.js';
export { type VerifyTokenOptions, type VerifyTokenResult, verifyToken } from './core/verifyToken.js';
export { type SiteverifyResult, siteverify } from './core/siteverify.js';
export { SiteRegistry, type SitesSnapshot, type SiteEntry } from './core/sites/SiteRegistry.js';
export { type SitePolicy, defaultPolicy } from './core/sites/SitePolicy.js';
export { loadSitesFile } from './core/sites/loadSitesFile.js';
export { DUMMY_TOKEN, TEST_SECRETS, TEST_SITE_KEYS } from './core/sites/testKeys.js';
export type { SigningKey } from './core/token/keys.js';
export { type MemoryStoreOptions, MemoryStore } from './store/MemoryStore.js';
export type { ConsumeResult, Store } from './store/Store.js';
export { ErrorStatus, type ErrorCode, type Failure } from './core/errors.js';
export type { Challenge } from './core/challenge/issueChallenge.js';
export { loadKernel } from './kernel/index.js';
export type { Kernel, Maze, MazeParams, RawEvent } from './kernel/types.js';
