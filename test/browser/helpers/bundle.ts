// A test page's script bundled with esbuild into memory from node_modules (published packages,
// unmodified, with React in production mode), never written to disk.
import { build } from 'esbuild';
import { repoRoot } from './server.js';

export async function bundleForBrowser(entry: string): Promise<string> {
  const out = await build({
    stdin: { contents: entry, resolveDir: repoRoot, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}
