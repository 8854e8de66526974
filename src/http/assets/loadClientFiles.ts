import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { COMPAT_SCRIPT_PATHS } from './compatScripts.js';

/** A file served from memory. */
export interface StaticFile {
  body: Buffer;
  contentType: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** A file read into memory with its type and ETag; undefined for a type not served. */
export function readStaticFile(file: string): StaticFile | undefined {
  const type = TYPES[path.extname(file)];
  if (type === undefined) return undefined;
  const body = readFileSync(file);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, contentType: type, etag };
}

/**
 * Reads the built client (dist/client) into memory, keyed by URL path: its top-level files at
 * /<name>, the demo at /demo/<name>, the demo page also at / (its icon also at /favicon.ico), and
 * the compatible scripts also at their services' paths (/recaptcha/api.js...). Missing folder: no
 * files.
 */
export function loadClientFiles(distDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const add = (urlPath: string, file: string) => {
    const read = readStaticFile(file);
    if (read !== undefined) files.set(urlPath, read);
  };
  for (const [dir, prefix] of [
    [distDir, '/'],
    [path.join(distDir, 'demo'), '/demo/'],
  ] as const) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isFile()) add(prefix + name, file);
    }
  }
  const page = files.get('/demo/index.html');
  if (page) files.set('/', page);
  // Browsers ask for /favicon.ico on their own: answered, not a 404 on the console.
  const icon = files.get('/demo/favicon.svg');
  if (icon) files.set('/favicon.ico', icon);
  for (const [built, paths] of Object.entries(COMPAT_SCRIPT_PATHS)) {
    const script = files.get(built);
    if (script) for (const p of paths) files.set(p, script);
  }
  return files;
}
