/**
 * `npm run gpu-kit`: a folder that measures NLI pairs/s on WebGPU and WASM on a bare x86-64 Linux machine with an
 * NVIDIA GPU and Vulkan, with no network and no Node or browser there: this machine's Node binary, Dawn's Node
 * binding (the `webgpu` package's linux-x64 dawn.node), onnxruntime-web's WebGPU build and its WASM, the benchmark
 * (bench.ts, bundled) and run.sh. The three large binaries are compressed — xz (31.5 MB in all), or gzip where
 * this machine has no xz (about 50 MB) — and run.sh unpacks them with xz / gzip, or Python's lzma / gzip modules
 * where those are missing, so the folder stays under 60 MB.
 *
 *   npm run gpu-kit [-- --out DIR]        -> bench/out/gpu-kit/ (default)
 *   DIR/run.sh [bench flags]               -> JSON on stdout (see bench.ts for the flags)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const KIT_LIMIT_BYTES = 60 * 1024 * 1024;

const RUN_SH = `#!/bin/sh
# Verity GPU kit: NLI pairs/s on WebGPU (Dawn) and WASM with onnxruntime-web, as JSON. No network needed.
# Usage: ./run.sh [--runs 5] [--batches 1,8,32] [--dtypes fp32,fp16] [--devices webgpu,wasm] [--out results.json]
set -e
cd "$(dirname "$0")"
for f in node.* ort/ort-wasm-simd-threaded.asyncify.wasm.* webgpu/dist/linux-x64/dawn.node.*; do
  case "$f" in *.xz) out="\${f%.xz}"; tool=xz; py=lzma ;; *.gz) out="\${f%.gz}"; tool=gzip; py=gzip ;; *) continue ;; esac
  [ -f "$out" ] && continue
  if command -v "$tool" >/dev/null 2>&1; then
    "$tool" -dc "$f" > "$out.tmp"
  else
    python3 -c "import $py, shutil, sys; shutil.copyfileobj($py.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$f" "$out.tmp"
  fi
  mv "$out.tmp" "$out"
done
chmod +x node
exec ./node bench.mjs "$@"
`;

const README = (node: string, ort: string, dawn: string) => `Verity GPU kit

Measures NLI pairs per second of a random-weight BERT-base NLI graph (built here, in fp32 and fp16) with
onnxruntime-web ${ort} (the build the Verity app ships) on WebGPU through Dawn's Node binding (webgpu ${dawn}) and
on WASM (one thread), at batch 1, 8 and 32, and prints one JSON object.

Needs: x86-64 Linux with glibc, xz / gzip or python3, and for WebGPU a Vulkan driver (libvulkan.so.1 and the GPU's ICD,
e.g. NVIDIA's). Without a usable adapter the WebGPU cells say so and the WASM cells still run.

  ./run.sh                          the default sweep (about 5 minutes on 16 cores)
  ./run.sh --out results.json       also writes the JSON to a file
  ./run.sh --layers 2 --hidden 128  a small graph, for a quick check

Contents: Node ${node} (MIT, nodejs.org), Dawn via the webgpu npm package (BSD-3-Clause, webgpu/LICENSE.md),
onnxruntime-web (MIT), bench.mjs (Verity, MIT).
`;

/** xz where the machine has it (the smaller kit), else gzip through Node's zlib (about 50 MB, still in the limit). */
type Packer = 'xz' | 'gzip';
export const defaultPacker = (): Packer => (spawnSync('xz', ['--version']).status === 0 ? 'xz' : 'gzip');

function pack(how: Packer, from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  if (how === 'xz') execFileSync('sh', ['-c', `xz -6 -T0 -c "$0" > "$1.xz"`, from, to]);
  else writeFileSync(`${to}.gz`, gzipSync(readFileSync(from), { level: 9 }));
}

function sizeOf(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? sizeOf(p) : statSync(p).size;
  }
  return n;
}

export async function buildKit(out: string, opts: { node?: string; packer?: Packer } = {}): Promise<{ dir: string; bytes: number }> {
  const how = opts.packer ?? defaultPacker();
  const dir = resolve(out);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'ort'), { recursive: true });
  const ortDir = join(ROOT, 'node_modules/onnxruntime-web/dist');
  const gpuDir = join(ROOT, 'node_modules/webgpu');
  const pkg = (p: string) => (JSON.parse(readFileSync(join(p, 'package.json'), 'utf8')) as { version: string }).version;

  await build({
    entryPoints: [join(ROOT, 'scripts/gpu-kit/bench.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: join(dir, 'bench.mjs'),
    logLevel: 'error',
  });
  copyFileSync(join(ortDir, 'ort.webgpu.min.mjs'), join(dir, 'ort/ort.webgpu.min.mjs'));
  copyFileSync(join(ortDir, 'ort-wasm-simd-threaded.asyncify.mjs'), join(dir, 'ort/ort-wasm-simd-threaded.asyncify.mjs'));
  pack(how, join(ortDir, 'ort-wasm-simd-threaded.asyncify.wasm'), join(dir, 'ort/ort-wasm-simd-threaded.asyncify.wasm'));
  mkdirSync(join(dir, 'webgpu'), { recursive: true });
  for (const f of ['index.js', 'package.json', 'LICENSE.md']) copyFileSync(join(gpuDir, f), join(dir, 'webgpu', f));
  pack(how, join(gpuDir, 'dist/linux-x64/dawn.node'), join(dir, 'webgpu/dist/linux-x64/dawn.node'));
  pack(how, opts.node ?? process.execPath, join(dir, 'node'));
  writeFileSync(join(dir, 'run.sh'), RUN_SH);
  chmodSync(join(dir, 'run.sh'), 0o755);
  writeFileSync(join(dir, 'README.txt'), README(process.version, pkg(join(ROOT, 'node_modules/onnxruntime-web')), pkg(gpuDir)));
  const bytes = sizeOf(dir);
  if (bytes > KIT_LIMIT_BYTES) throw new Error(`the kit is ${(bytes / 2 ** 20).toFixed(1)} MB, over its 60 MB limit`);
  return { dir, bytes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const i = process.argv.indexOf('--out');
  const out = i > 0 ? process.argv[i + 1]! : join(ROOT, 'bench/out/gpu-kit');
  const t0 = performance.now();
  const { dir, bytes } = await buildKit(out);
  console.log(
    `gpu kit: ${dir} (${(bytes / 2 ** 20).toFixed(1)} MB, ${((performance.now() - t0) / 1000).toFixed(0)} s); run ${join(dir, 'run.sh')}`,
  );
}
