// Bundles src/extension.ts and vscode-languageclient into dist/extension.js;
// with --tests, src/test/*.test.ts into out/test/ for `node --test`.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';

const production = process.argv.includes('--production');
const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node18', logLevel: 'warning' };

if (process.argv.includes('--tests')) {
  await esbuild.build({
    ...common,
    entryPoints: readdirSync('src/test').filter((f) => f.endsWith('.test.ts')).map((f) => `src/test/${f}`),
    outdir: 'out/test',
    external: ['vscode'],
  });
} else {
  await esbuild.build({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
  });
}
