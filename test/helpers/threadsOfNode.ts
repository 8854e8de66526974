/**
 * Requests to a real process with WORKERS > 1, each on a connection of its own so the kernel
 * spreads them over the threads, and which thread answered what (from GET /metrics).
 */
import { request } from 'node:http';
import type { AriadneNode } from './ariadneNode.js';

/** POSTs (or GETs without a body) on a connection of its own, so the kernel spreads them over the threads. */
export function onNewConnection(
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      { method: data ? 'POST' : 'GET', agent: false, headers: data ? { 'content-type': 'application/json', ...headers } : headers },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** `count` answers of `url`, all sent at once, each on its own connection. */
export const burst = (count: number, url: string, body?: unknown, headers?: Record<string, string>) =>
  Promise.all(Array.from({ length: count }, () => onNewConnection(url, body, headers)));

/**
 * The answers of `route` that each thread counted, by its `thread` label, from one scrape of
 * GET /metrics (whichever thread takes it answers for all of them).
 */
export async function answersByThread(node: AriadneNode, route: string): Promise<Map<string, number>> {
  const text = (await onNewConnection(node.at('/metrics'))).text;
  const byThread = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('ariadne_http_requests_total{') || !line.includes(`route="${route}"`)) continue;
    const thread = /thread="(\d+)"/.exec(line)![1]!;
    byThread.set(thread, (byThread.get(thread) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return byThread;
}
