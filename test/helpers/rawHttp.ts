/** Raw HTTP/1.1 over one loopback TCP connection (node:net), for what fetch cannot send. */
import { connect } from 'node:net';

export type RawChunk = string | Buffer | { delay: number };

export interface Exchange {
  /** Everything the server sent. */
  text: string;
  /** The server closed the connection (rather than the wait running out). */
  closed: boolean;
  /** The write failed (EPIPE, ECONNRESET) before everything was sent. */
  writeError?: string;
}

/**
 * Writes `chunks` (pausing at each `{delay}`) and reads until the server closes the connection,
 * `waitMs` pass, or `enough(text)` holds once every write has been flushed or has failed (as a
 * client that sends its whole request before it looks at the answer).
 */
export function exchange(
  port: number,
  chunks: readonly RawChunk[],
  waitMs = 2000,
  enough: (text: string) => boolean = () => false,
  localAddress?: string,
): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', ...(localAddress === undefined ? {} : { localAddress }) });
    let text = '';
    let writeError: string | undefined;
    let written = false;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(writeError === undefined ? { text, closed } : { text, closed, writeError });
    };
    const check = () => {
      if (written && enough(text)) finish(false);
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d) => {
      text += d.toString('latin1');
      check();
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (e) => (writeError ??= (e as NodeJS.ErrnoException).code ?? e.message));
    socket.on('connect', async () => {
      for (const c of chunks) {
        if (socket.destroyed) return;
        if (typeof c === 'object' && 'delay' in c) await new Promise((r) => setTimeout(r, c.delay));
        else await new Promise<void>((r) => socket.write(c, () => r()));
      }
      written = true;
      check();
    });
  });
}

/** The whole first response (its head and, by its Content-Length, its body) has arrived. */
export function hasFirstResponse(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  const length = /content-length: (\d+)/i.exec(text);
  return end !== -1 && length !== null && text.length >= end + 4 + Number(length[1]);
}

/** Sends raw bytes on one connection and returns what came back, up to the first whole response. */
export async function firstResponse(port: number, chunks: readonly RawChunk[], waitMs = 2000): Promise<string> {
  return (await exchange(port, chunks, waitMs, hasFirstResponse)).text;
}

/** The status codes of every response in `text`, in order. */
export function statuses(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}

/** One response read off the wire: its status, its head's lines, its body (by Content-Length). */
export interface WireResponse {
  status: number;
  head: string[];
  body: string;
}

/**
 * Every whole response in `text`, in order, each framed by its Content-Length (none: no body);
 * a trailing partial response is left out. Not for answers to HEAD, whose length has no body.
 */
export function responses(text: string): WireResponse[] {
  const found: WireResponse[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const [statusLine = '', ...head] = text.slice(at, end).split('\r\n');
    const length = Number(head.find((h) => /^content-length:/i.test(h))?.split(':')[1] ?? 0);
    if (text.length < end + 4 + length) break;
    found.push({ status: Number(statusLine.split(' ')[1]), head, body: text.slice(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return found;
}

/** How many `Connection: close` lines the head of `r` has. */
export function closeHeaders(r: WireResponse): number {
  return r.head.filter((h) => /^connection:\s*close$/i.test(h)).length;
}
