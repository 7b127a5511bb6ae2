// The WASM ceiling of `npm run bench:nli`: a bare onnxruntime-web InferenceSession in a Web Worker of the same
// page, on the same ONNX file, with the same build of onnxruntime-web the app's model worker uses (the file
// `onnxruntime-web/webgpu` resolves to, copied next to this one), the app's self-hosted wasm files and the
// same number of threads. It runs pre-tokenised, pre-padded batches: no tokenizer, no transformers.js, no
// comlink — only session.run. Copied into the served app by bench/nli-browser.ts; not part of the app.
import * as ort from './ort.bundle.mjs';

let session = null;
let feeds = [];

const reply = (msg) => postMessage(msg);

onmessage = async (e) => {
  const m = e.data;
  try {
    if (m.type === 'load') {
      ort.env.wasm.wasmPaths = m.wasmPaths;
      ort.env.wasm.numThreads = m.threads;
      const bytes = new Uint8Array(await (await fetch(m.url)).arrayBuffer());
      session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
      reply({ ok: true, inputNames: session.inputNames, version: ort.env.versions?.web ?? '' });
    } else if (m.type === 'prepare') {
      // Tensors built before timing: the ceiling times session.run only.
      feeds = m.batches.map((b) =>
        Object.fromEntries(
          session.inputNames.map((name) => [
            name,
            new ort.Tensor('int64', BigInt64Array.from(b.inputs[name].data, BigInt), b.inputs[name].dims),
          ]),
        ),
      );
      reply({ ok: true, batches: feeds.length });
    } else if (m.type === 'run') {
      const t = performance.now();
      const outs = [];
      for (const feed of feeds) outs.push((await session.run(feed)).logits.data);
      const ms = performance.now() - t;
      reply({ ok: true, ms, logits: outs.map((d) => Array.from(d)) });
    } else if (m.type === 'dispose') {
      await session?.release();
      session = null;
      reply({ ok: true });
    }
  } catch (err) {
    reply({ ok: false, error: String(err && err.message ? err.message : err) });
  }
};
