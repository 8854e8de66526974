/**
 * Every fetch on a connection of its own (no keep-alive), so the kernel spreads a test's
 * requests over the threads that share a port rather than keeping them on the first's.
 */
import { Agent, setGlobalDispatcher } from 'undici';

setGlobalDispatcher(new Agent({ pipelining: 0 }));
