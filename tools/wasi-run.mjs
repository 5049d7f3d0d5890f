// Run a WASI (wasm32-wasip1) program under Node.js: `node tools/wasi-run.mjs PROGRAM.wasm ARGS...`.
// The program sees the current directory as `/` (and nothing else of the file system), its
// arguments, and no environment; its exit code is this process's.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { argv, exit } from 'node:process';

const [program, ...args] = argv.slice(2);
if (!program) {
  console.error('usage: node tools/wasi-run.mjs PROGRAM.wasm [ARGS...]');
  exit(2);
}
const wasi = new WASI({
  version: 'preview1',
  args: [program, ...args],
  env: {},
  preopens: { '/': '.' },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
