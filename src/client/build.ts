// Builds the browser client into dist/client/: ariadne.mjs (ES module), ariadne.js (classic
// script), ariadne-worker.js (the proof-of-work worker), kernel.wasm, the demo page, the
// scripts with the reCAPTCHA, hCaptcha and Turnstile APIs (compat-*.js, served at their paths)
// and the operator dashboard (dashboard/).
// Run: tsx src/client/build.ts
import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { build, type BuildOptions } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const CLIENT_FILES = [
  'ariadne.mjs',
  'ariadne.js',
  'ariadne-worker.js',
  'kernel.wasm',
  'compat-recaptcha.js',
  'compat-hcaptcha.js',
  'compat-turnstile.js',
] as const;

export async function buildClient(outDir = path.join(root, 'dist/client')): Promise<{ file: string; bytes: number; gzip: number }[]> {
  const wasm = path.join(root, 'build/kernel.wasm');
  await stat(wasm).catch(() => {
    throw new Error('build/kernel.wasm is missing: run `npm run build:wasm` first');
  });
  await mkdir(path.join(outDir, 'demo'), { recursive: true });
  await mkdir(path.join(outDir, 'dashboard'), { recursive: true });
  const common: BuildOptions = {
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    platform: 'browser',
    target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
    legalComments: 'none',
    logLevel: 'warning',
  };
  const src = (f: string) => path.join(root, 'src/client', f);
  await Promise.all([
    build({ ...common, entryPoints: [src('index.ts')], format: 'esm', outfile: path.join(outDir, 'ariadne.mjs') }),
    build({ ...common, entryPoints: [src('classic.ts')], format: 'iife', outfile: path.join(outDir, 'ariadne.js') }),
    build({ ...common, entryPoints: [src('worker.ts')], format: 'iife', outfile: path.join(outDir, 'ariadne-worker.js') }),
    ...['recaptcha', 'hcaptcha', 'turnstile'].map((name) =>
      build({ ...common, entryPoints: [src(`compat/${name}.ts`)], format: 'iife', outfile: path.join(outDir, `compat-${name}.js`) }),
    ),
    copyFile(wasm, path.join(outDir, 'kernel.wasm')),
  ]);
  // The operator dashboard: its page, login form, script and style sheet (uPlot's bundled in).
  await build({
    ...common,
    entryPoints: [src('dashboard/dashboard.ts')],
    format: 'esm',
    outfile: path.join(outDir, 'dashboard', 'dashboard.js'),
  });
  for (const f of ['index.html', 'login.html']) await copyFile(src(`dashboard/${f}`), path.join(outDir, 'dashboard', f));
  const demo = src('demo');
  for (const f of await readdir(demo)) await copyFile(path.join(demo, f), path.join(outDir, 'demo', f));
  return CLIENT_FILES.map((file) => {
    const bytes = readFileSync(path.join(outDir, file));
    return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = await buildClient();
  for (const s of sizes) console.log(`${s.file.padEnd(20)} ${String(s.bytes).padStart(7)} B  ${String(s.gzip).padStart(6)} B gzip`);
}
