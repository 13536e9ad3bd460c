// Prints the size of the dashboard's initial load: the JS and CSS that dist/index.html itself
// references (entry script, module preloads, stylesheets), raw, gzip and as sent to a browser
// that accepts brotli (the build's .br copies, scripts/compress.mjs; betty serve sends those).
// Lazy route chunks are not counted. `make bench` shows the line; run `npm run build` first.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

let html;
try {
  html = await readFile(path.join(dist, 'index.html'), 'utf8');
} catch {
  console.error('dist/index.html is missing: run `npm run build` first');
  process.exit(1);
}

const js = new Set();
const css = new Set();
for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
  const src = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
  if (!src || /^(https?:)?\/\//.test(src)) continue;
  if (tag.startsWith('<script') || /rel="modulepreload"/.test(tag)) js.add(src);
  else if (/rel="stylesheet"/.test(tag)) css.add(src);
}

async function gzipSize(files) {
  let raw = 0;
  let gz = 0;
  let br = 0;
  for (const file of files) {
    const name = path.join(dist, file.replace(/^\//, ''));
    const body = await readFile(name);
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
    // What betty serve sends: the build's brotli copy when there is one.
    br += await readFile(`${name}.br`).then(
      (b) => b.length,
      () => brotliCompressSync(body).length,
    );
  }
  return { raw, gz, br };
}

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const j = await gzipSize(js);
const c = await gzipSize(css);
console.log(
  `dashboard initial bundle: JS ${kb(j.gz)} gzip (${kb(j.raw)} raw, ${js.size} file${js.size === 1 ? '' : 's'}), CSS ${kb(c.gz)} gzip (${kb(c.raw)} raw, ${css.size} file${css.size === 1 ? '' : 's'}), total ${kb(j.gz + c.gz)} gzip, ${kb(j.br + c.br)} brotli as sent (${kb(j.raw + c.raw)} raw)`,
);
