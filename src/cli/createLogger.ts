import { type Logger, pino } from 'pino';
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
  if (terminal) return pino(options, pretty({ destination: out, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,name' }));
  return out === process.stdout ? pino(options) : pino(options, out);
}
