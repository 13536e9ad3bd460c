// Writes a gzip (.gz) and a brotli (.br) copy beside every compressible file of dist/, at the
// highest levels (done once at build time, so the server never compresses on a request). A copy
// is kept only when it saves at least 5% and the file is over 1 KiB; `betty serve` picks the
// best one the browser accepts (server/web). Prints what it saved.

import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', process.argv[2] ?? 'dist');
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest', '.map']);
const MIN_BYTES = 1024;
const MIN_SAVING = 0.05;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.has(path.extname(entry.name))) yield full;
  }
}

let raw = 0;
let gz = 0;
let br = 0;
let count = 0;
for await (const file of files(dist)) {
  if ((await stat(file)).size < MIN_BYTES) continue;
  const body = await readFile(file);
  const variants = {
    '.gz': gzipSync(body, { level: 9 }),
    '.br': brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
  };
  raw += body.length;
  count += 1;
  for (const [ext, data] of Object.entries(variants)) {
    const kept = data.length <= body.length * (1 - MIN_SAVING);
    if (kept) await writeFile(file + ext, data);
    const sent = kept ? data.length : body.length;
    if (ext === '.gz') gz += sent;
    else br += sent;
  }
}
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
console.log(`compressed ${count} files: ${kb(raw)} → gzip ${kb(gz)}, brotli ${kb(br)}`);
