import { type DestinationStream, type Logger, pino } from 'pino';
import pretty from 'pino-pretty';
import type { LogLevel } from '../config.js';

/** Where logs go: stdout by default; a terminal gets readable lines. */
export interface LogOutput extends NodeJS.WritableStream {
  isTTY?: boolean;
}

/**
 * The server's logger: pretty-printed (pino-pretty, coloured) when `out` is a terminal, one JSON
 * object per line otherwise (for log collectors). `terminal` says which, for a server thread whose
 * stdout is a pipe to the main thread's.
 */
export function createLogger(level: LogLevel, out: LogOutput = process.stdout, terminal = out.isTTY === true): Logger {
  const options = { name: 'ariadne', level };
  if (terminal)
    return pino(options, pretty({ destination: out, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' }));
  return pino(options, out === process.stdout ? stdoutDestination() : out);
}

/** Most log bytes held for a stdout reader that is behind; lines beyond are dropped. */
const STDOUT_BUFFER_BYTES = 1 << 20;

/**
 * Standard output that never stalls the server. pino's default synchronous destination retries a
 * full pipe forever, sleeping the thread: a log reader that stops reading (a supervisor gone with
 * the pipe open) would stop every request, and SIGTERM's shutdown with them. Here a full pipe
 * keeps what it cannot write (up to STDOUT_BUFFER_BYTES, then drops lines) and the write error is
 * ignored: lines are lost rather than availability.
 */
function stdoutDestination(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: true, retryEAGAIN: () => false, maxLength: STDOUT_BUFFER_BYTES });
  destination.on('error', () => {});
  return destination;
}
