/**
 * Model registry for the in-browser runtime (transformers.js 4.x, ONNX files under `onnx/`).
 *
 * Every id, revision, file name and size below was read off a Hugging Face Hub page (tree, blob,
 * blame or commit page) listed in the entry's `source`. The Hub shows sizes rounded in decimal units
 * ("87.2 MB" = 87.2 × 10^6 bytes), so most byte counts here are approximations of the displayed value;
 * `sizeNote` says which ones are exact and flags any that could not be confirmed at the pinned revision.
 *
 * dtype → file suffix used by transformers.js: fp32 → `model.onnx`, fp16 → `model_fp16.onnx`,
 * q8 → `model_quantized.onnx`, q4 → `model_q4.onnx`, q4f16 → `model_q4f16.onnx`
 * (seq2seq: `encoder_model*.onnx` + `decoder_model_merged*.onnx`).
 *
 * `dtypes` only lists dtypes whose files were confirmed at the pinned revision, and `files` lists exactly
 * the files the loader fetches for those dtypes (config/tokenizer JSONs + the ONNX weights).
 * An empty list for a device means "do not run this model on that device" (fall back to the next device).
 *
 * `memoryMb` is a rough estimate (≈1.75× the weights of the first wasm/cpu choice, plus a little for
 * tokenizer and activations); it is not a measurement.
 *
 * Known accuracy caveats (see report / issue links in entries' `notes`):
 *  - WebGPU + int8/int4 weights has open "silently wrong output" reports
 *    (huggingface/transformers.js#1512, #1728; microsoft/onnxruntime#32730), so q8/q4 are never listed
 *    for `webgpu` here; the loader should still run a parity probe against wasm before trusting WebGPU.
 *  - Quantized (q8) zero-shot/NLI scores differ from the PyTorch reference; the maintainer's advice is
 *    to use the unquantized model when exact parity matters (huggingface/transformers.js#229).
 *  - DeBERTa-v3 family has known fp16 overflow problems (microsoft/DeBERTa#77, transformers#24116, both
 *    about training, but fp16 activations are the same risk at inference) — verify fp16 NLI on WebGPU
 *    against fp32/wasm before using it.
 */

import type { Capability } from '../core/capabilities.ts';

export type Role = 'nli' | 'reranker' | 'embedder' | 'statements';
export type Device = 'webgpu' | 'wasm' | 'cpu';
export type Dtype = 'fp32' | 'fp16' | 'q8' | 'q4' | 'q4f16';

/** transformers.js' ONNX file suffix per dtype (`model_quantized.onnx` for q8, …), as in the header above. */
export const DTYPE_SUFFIX: Readonly<Record<Dtype, string>> = { fp32: '', fp16: '_fp16', q8: '_quantized', q4: '_q4', q4f16: '_q4f16' };

export interface RegistryEntry {
  key: string; // short stable key, e.g. 'nli-xsmall'
  role: Role;
  id: string; // hub id
  revision: string; // full 40-hex commit SHA where the listed files exist
  label: string; // human name for the UI
  default?: boolean; // the default for its role (exactly one per role)
  dtypes: Record<Device, Dtype[]>; // preference order per device, only dtypes whose files exist at that revision
  files: Record<string, number>; // every file the loader will fetch for the listed dtypes → size in bytes
  sizeNote?: string;
  /** SHA-256 of the files whose Hub blob page shows it for the pinned revision (Git LFS / Xet pointer details). */
  sha256?: Record<string, string>;
  labels?: Record<string, number>; // NLI: label name → index (from config.json id2label)
  pooling?: 'mean' | 'cls'; // embedders
  normalize?: boolean;
  memoryMb: number; // rough peak memory need when loaded (estimate)
  source: string[]; // URLs of the pages that confirm id, revision, files
  notes?: string;
}

/** id2label shared by the cross-encoder/nli-deberta-v3-* family and their Xenova ONNX conversions. */
const CROSS_ENCODER_NLI_LABELS: Readonly<Record<string, number>> = {
  contradiction: 0,
  entailment: 1,
  neutral: 2,
};

export const REGISTRY: readonly RegistryEntry[] = [
  // ───────────────────────────────────────────── NLI ─────────────────────────────────────────────
  {
    key: 'nli-xsmall',
    role: 'nli',
    id: 'Xenova/nli-deberta-v3-xsmall',
    revision: '4ce66096a56eb536b4b9e437f27ef42c24aeae51',
    label: 'DeBERTa-v3 xsmall NLI (cross-encoder)',
    default: true,
    dtypes: {
      webgpu: ['fp16', 'fp32'],
      wasm: ['q8', 'fp32'],
      cpu: ['q8', 'fp32'],
    },
    files: {
      'config.json': 1_038,
      'tokenizer.json': 8_660_000,
      'tokenizer_config.json': 384,
      'onnx/model.onnx': 284_000_000,
      'onnx/model_fp16.onnx': 143_000_000,
      'onnx/model_quantized.onnx': 87_200_000,
    },
    sizeNote:
      "config.json (1,038 B, blame page) and tokenizer_config.json (384 B) are exact; tokenizer.json (8.66 MB) and the ONNX files (284 MB / 143 MB / 87.2 MB) are the Hub's rounded decimal sizes.",
    sha256: {
      // blob/b6103747…/onnx/model_fp16.onnx, last changed in the pinned commit 4ce6609
      'onnx/model_fp16.onnx': '2b260529bd21b58665b2f5844eed902ba6c4ceb098e64c6c73eab3e5f0d327b2',
    },
    labels: { ...CROSS_ENCODER_NLI_LABELS },
    memoryMb: 160,
    source: [
      'https://huggingface.co/Xenova/nli-deberta-v3-xsmall/tree/4ce66096a56eb536b4b9e437f27ef42c24aeae51',
      'https://huggingface.co/Xenova/nli-deberta-v3-xsmall/tree/main/onnx',
      'https://huggingface.co/Xenova/nli-deberta-v3-xsmall/blob/b6103747d20ea677d3bf6cd0f605ca93c543b697/onnx/model_fp16.onnx',
      'https://huggingface.co/Xenova/nli-deberta-v3-xsmall/blame/main/config.json',
    ],
    notes:
      'Revision 4ce6609 is the "Upload fp16 ONNX weights" commit; its tree lists config/tokenizer files and the onnx/ folder (model.onnx, model_fp16.onnx, model_quantized.onnx per tree/main/onnx whose last onnx commit is 4ce6609). Labels read from this repo\'s own config.json (id2label 0 contradiction, 1 entailment, 2 neutral; _name_or_path cross-encoder/nli-deberta-v3-xsmall). Memory: q8 ≈ 87 MB weights → ~160 MB; fp16 on WebGPU ≈ 250 MB.',
  },
  {
    key: 'nli-small',
    role: 'nli',
    id: 'Xenova/nli-deberta-v3-small',
    revision: 'd7f937891ca81ac364e000e03538fe0c26de968e',
    label: 'DeBERTa-v3 small NLI (cross-encoder)',
    dtypes: {
      webgpu: ['fp16', 'fp32'],
      wasm: ['q8', 'fp32'],
      cpu: ['q8', 'fp32'],
    },
    files: {
      'config.json': 1_040,
      'tokenizer.json': 8_660_000,
      'tokenizer_config.json': 384,
      'onnx/model.onnx': 568_000_000,
      'onnx/model_fp16.onnx': 284_000_000,
      'onnx/model_quantized.onnx': 172_000_000,
    },
    sizeNote:
      'tokenizer_config.json (384 B) exact; config.json ("1.04 kB"), tokenizer.json ("8.66 MB") and ONNX sizes (568 / 284 / 172 MB) are rounded Hub values. Root-file sizes were read at revision f7b4fbad3c620e8fe369165f02cdb429fb7a9e5e; the pinned fp16 commit only added onnx/model_fp16.onnx (blob/main/tokenizer.json still shows last change 14861be).',
    sha256: {
      // blob/d7f93789…/onnx/model_fp16.onnx (the pinned commit)
      'onnx/model_fp16.onnx': 'd2962e282cde648517e72fc1635ee14c471fd0ae46820a55b707ee57f904c8ad',
      // blob/14861be0…/onnx/model_quantized.onnx; the pinned commit only added model_fp16.onnx
      'onnx/model_quantized.onnx': '4edae6adf6ef735d3983a052113e8a235da2e9ac6a6cadf33f3fc088117e6051',
    },
    labels: { ...CROSS_ENCODER_NLI_LABELS },
    memoryMb: 300,
    source: [
      'https://huggingface.co/Xenova/nli-deberta-v3-small/blob/14861be08e229011de50437e60fdc7000166fee9/onnx/model_quantized.onnx',
      'https://huggingface.co/Xenova/nli-deberta-v3-small/blob/d7f937891ca81ac364e000e03538fe0c26de968e/onnx/model_fp16.onnx',
      'https://huggingface.co/Xenova/nli-deberta-v3-small/tree/main/onnx',
      'https://huggingface.co/Xenova/nli-deberta-v3-small/tree/f7b4fbad3c620e8fe369165f02cdb429fb7a9e5e',
      'https://huggingface.co/Xenova/nli-deberta-v3-small/blob/main/tokenizer.json',
      'https://huggingface.co/cross-encoder/nli-deberta-v3-small/blame/main/config.json',
    ],
    notes:
      "Labels taken from the source model cross-encoder/nli-deberta-v3-small config.json (0 contradiction, 1 entailment, 2 neutral); the Xenova copy's config.json page was not found — the loader should read id2label from the fetched config.json and assert it matches. Memory: q8 ≈ 172 MB → ~300 MB.",
  },
  {
    key: 'nli-base',
    role: 'nli',
    id: 'Xenova/nli-deberta-v3-base',
    revision: '215b6d36e303800542e9fa6e08d4e27c0c288a28',
    label: 'DeBERTa-v3 base NLI (cross-encoder)',
    dtypes: {
      webgpu: ['fp32'],
      wasm: ['q8', 'fp32'],
      cpu: ['q8', 'fp32'],
    },
    files: {
      'config.json': 1_040,
      'tokenizer.json': 8_660_000,
      'tokenizer_config.json': 384,
      'onnx/model.onnx': 739_000_000,
      'onnx/model_quantized.onnx': 244_000_000,
    },
    sizeNote:
      'ONNX sizes (739 / 244 MB) and tokenizer.json (8.66 MB) are rounded Hub values. config.json and tokenizer_config.json sizes are NOT confirmed for this repo (no tree page of its root was found); 1,040 B and 384 B are the values shown for the sibling xsmall/small/large Xenova conversions — treat as placeholders.',
    labels: { ...CROSS_ENCODER_NLI_LABELS },
    memoryMb: 430,
    source: [
      'https://huggingface.co/Xenova/nli-deberta-v3-base/tree/215b6d36e303800542e9fa6e08d4e27c0c288a28/onnx',
      'https://huggingface.co/Xenova/nli-deberta-v3-base/blob/main/tokenizer.json',
      'https://huggingface.co/cross-encoder/nli-deberta-v3-base/blame/main/config.json',
    ],
    notes:
      'Only fp32 and q8 exist at 215b6d3 (no model_fp16.onnx there; a later fp16 upload, as for the siblings, was not found). q8 is not offered on WebGPU because of open int8-on-WebGPU correctness reports, so WebGPU needs the 739 MB fp32 file. Labels from the source model cross-encoder/nli-deberta-v3-base config.json (0 contradiction, 1 entailment, 2 neutral). Memory: q8 ≈ 244 MB → ~430 MB; fp32 ≈ 1.3 GB.',
  },
  {
    key: 'nli-large',
    role: 'nli',
    id: 'Xenova/nli-deberta-v3-large',
    revision: 'e85c489e27be79aee00ab4a81c47e4a07505f24f',
    label: 'DeBERTa-v3 large NLI (CAP paper model, cross-encoder)',
    dtypes: {
      webgpu: ['fp16', 'fp32'],
      wasm: ['q8', 'fp32'],
      cpu: ['q8', 'fp32'],
    },
    files: {
      'config.json': 1_040,
      'tokenizer.json': 8_660_000,
      'tokenizer_config.json': 384,
      'onnx/model.onnx': 1_740_000_000,
      'onnx/model_fp16.onnx': 872_000_000,
      'onnx/model_quantized.onnx': 643_000_000,
    },
    sizeNote:
      'tokenizer_config.json (384 B) exact; config.json ("1.04 kB"), tokenizer.json ("8.66 MB") and ONNX sizes (1.74 GB / 872 MB / 643 MB) are rounded Hub values read from tree/main while main was at e85c489.',
    labels: { ...CROSS_ENCODER_NLI_LABELS },
    memoryMb: 1100,
    source: [
      'https://huggingface.co/Xenova/nli-deberta-v3-large/tree/main',
      'https://huggingface.co/Xenova/nli-deberta-v3-large/tree/main/onnx',
      'https://huggingface.co/Xenova/nli-deberta-v3-large/commit/e85c489e27be79aee00ab4a81c47e4a07505f24f',
      'https://huggingface.co/Xenova/nli-deberta-v3-large/blob/main/tokenizer_config.json',
      'https://huggingface.co/cross-encoder/nli-deberta-v3-large/tree/main/onnx',
      'https://huggingface.co/Sandipan1994/sentence_eval1/blame/5d7bab1fe7b74be081f9d9a142a251cba5dbb49b/config.json',
    ],
    notes:
      "ONNX export of the CAP paper's cross-encoder/nli-deberta-v3-large: commit e85c489 (README-only child of the fp16 upload 9c02d96) sets base_model to cross-encoder/nli-deberta-v3-large. The cross-encoder repo itself also has onnx/ (model.onnx 1.74 GB, model_O1.onnx, model_qint8_{arm64,avx512,avx512_vnni}.onnx, model_quint8_avx2.onnx 643 MB) but none is named model_quantized/model_fp16, so transformers.js dtype selection cannot reach them — use this Xenova copy. Labels: the Xenova config.json page was not found; mapping taken from a config copied from cross-encoder/nli-deberta-v3-large (_name_or_path) and consistent with the xsmall/small/base family — verify id2label at load. Too heavy as a browser default: fp32 1.74 GB is close to the wasm32 4 GB heap limit once loaded; q8 ≈ 643 MB → ~1.1 GB peak; fp16 ≈ 1.5 GB GPU memory.",
  },

  // ─────────────────────────────────────────── Reranker ───────────────────────────────────────────
  {
    key: 'rerank-minilm-l6',
    role: 'reranker',
    id: 'Xenova/ms-marco-MiniLM-L-6-v2',
    revision: 'fec3517fe1016cfeee39338ef98ba76fc449dbcc',
    label: 'MS MARCO MiniLM-L6 cross-encoder',
    default: true,
    dtypes: {
      webgpu: ['fp16', 'fp32'],
      wasm: ['q8', 'fp32'],
      cpu: ['q8', 'fp32'],
    },
    files: {
      'config.json': 824,
      'tokenizer.json': 711_000,
      'tokenizer_config.json': 1_240,
      'onnx/model.onnx': 91_000_000,
      'onnx/model_fp16.onnx': 45_600_000,
      'onnx/model_quantized.onnx': 23_100_000,
    },
    sizeNote:
      'config.json (824 B) exact; tokenizer.json ("711 kB"), tokenizer_config.json ("1.24 kB") and ONNX sizes (91 / 45.6 / 23.1 MB) are rounded Hub values.',
    sha256: {
      // blob/fec3517f…/onnx/model_fp16.onnx (the pinned commit)
      'onnx/model_fp16.onnx': 'a8b79f5c22bc717c0082cb30424365f59d6689b86cfa0c4b293832acf158c66f',
    },
    memoryMb: 45,
    source: [
      'https://huggingface.co/Xenova/ms-marco-MiniLM-L-6-v2/blob/fec3517fe1016cfeee39338ef98ba76fc449dbcc/onnx/model_fp16.onnx',
      'https://huggingface.co/Xenova/ms-marco-MiniLM-L-6-v2/tree/fec3517fe1016cfeee39338ef98ba76fc449dbcc',
      'https://huggingface.co/Xenova/ms-marco-MiniLM-L-6-v2/tree/fec3517fe1016cfeee39338ef98ba76fc449dbcc/onnx',
    ],
    notes:
      'Default reranker because of size: 23 MB (q8) / 46 MB (fp16) versus 151 MB / 300 MB for gte-reranker-modernbert-base, 6 BERT layers, 512-token window — fast on wasm on any laptop. Single-logit head (id2label LABEL_0, sbert default activation Identity): use the raw logit for ranking, sigmoid if a 0–1 score is needed. Trained on MS MARCO passage ranking, so it is a weaker judge of answer correctness than the gte ModernBERT reranker.',
  },
  {
    key: 'rerank-gte-modernbert',
    role: 'reranker',
    id: 'Alibaba-NLP/gte-reranker-modernbert-base',
    revision: 'f1700f2a81b09a87d53e5237a9be9a753d0ce419',
    label: 'GTE reranker ModernBERT-base (A-VERT best small ranker)',
    dtypes: {
      webgpu: ['fp16', 'fp32'],
      wasm: ['q8', 'fp32'],
      cpu: ['q8', 'fp32'],
    },
    files: {
      'config.json': 1_330,
      'tokenizer.json': 3_580_000,
      'tokenizer_config.json': 21_000,
      'onnx/model.onnx': 599_000_000,
      'onnx/model_fp16.onnx': 300_000_000,
      'onnx/model_quantized.onnx': 151_000_000,
    },
    sizeNote:
      'All sizes are rounded Hub values ("1.33 kB", "3.58 MB", "21 kB", 599 / 300 / 151 MB). Root files read from tree/main while main was at f1700f2; onnx/ read from tree/f1700f2…/onnx.',
    memoryMb: 300,
    source: [
      'https://huggingface.co/Alibaba-NLP/gte-reranker-modernbert-base/tree/f1700f2a81b09a87d53e5237a9be9a753d0ce419/onnx',
      'https://huggingface.co/Alibaba-NLP/gte-reranker-modernbert-base/tree/main',
    ],
    notes:
      'ONNX files at f1700f2 (uploaded in PR #4, "Upload reranker ONNX weights"): model.onnx 599 MB, model_fp16.onnx 300 MB, model_quantized.onnx 151 MB, model_int8.onnx 151 MB, model_uint8.onnx 151 MB, model_q4.onnx 225 MB, model_q4f16.onnx 140 MB, model_bnb4.onnx 218 MB. q4 is larger than q8 here, so it is not offered; q4f16 (140 MB) exists but is left out of the WebGPU list because of open reports of wrong q4/q8 output on WebGPU (transformers.js#1728). ModernBERT accepts long inputs (8k positions); memory grows with sequence length, cap inputs in the loader. Memory: q8 ≈ 151 MB → ~300 MB at moderate lengths.',
  },

  // ─────────────────────────────────────────── Embedder ───────────────────────────────────────────
  {
    key: 'embed-bge-small',
    role: 'embedder',
    id: 'Xenova/bge-small-en-v1.5',
    revision: 'b7ad92a45a298ac620504489f28ecb6ac66ad67c',
    label: 'BGE small en v1.5',
    default: true,
    dtypes: {
      webgpu: ['fp16', 'fp32'],
      wasm: ['q8', 'fp32'],
      cpu: ['q8', 'fp32'],
    },
    files: {
      'config.json': 683,
      'tokenizer.json': 711_000,
      'tokenizer_config.json': 366,
      'onnx/model.onnx': 133_000_000,
      'onnx/model_fp16.onnx': 66_700_000,
      'onnx/model_quantized.onnx': 34_000_000,
    },
    sizeNote:
      'config.json (683 B) and tokenizer_config.json (366 B) exact; tokenizer.json ("711 kB") and ONNX sizes (133 / 66.7 / 34 MB) are rounded Hub values.',
    sha256: {
      // blob/9c5aaf8a…/onnx/model.onnx, last changed in 50d3402 (the v1.5 upload; the pinned commit added only model_fp16.onnx)
      'onnx/model.onnx': '828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35',
    },
    pooling: 'cls',
    normalize: true,
    memoryMb: 60,
    source: [
      'https://huggingface.co/Xenova/bge-small-en-v1.5/blob/9c5aaf8ad1ffd76192592209b14ae03a43091e1d/onnx/model.onnx',
      'https://huggingface.co/Xenova/bge-small-en-v1.5/tree/b7ad92a45a298ac620504489f28ecb6ac66ad67c',
      'https://huggingface.co/Xenova/bge-small-en-v1.5/tree/b7ad92a45a298ac620504489f28ecb6ac66ad67c/onnx',
    ],
    notes:
      'CLS pooling + L2 normalisation (BGE convention). Xenova/all-MiniLM-L6-v2 (mean pooling + normalize) was considered: its onnx/ (model.onnx 90.4 MB, model_fp16.onnx 45.3 MB, model_quantized.onnx 23 MB) and tokenizer.json (712 kB) are confirmed at 38f51e96ad6c3218b7105d77dd1e38db0a586310, but its config.json/tokenizer_config.json sizes could not be confirmed, so it is not listed. Memory: q8 ≈ 34 MB → ~60 MB.',
  },

  // ────────────────────────────────────────── Statements ──────────────────────────────────────────
  {
    key: 'stmt-flan-t5-small',
    role: 'statements',
    id: 'Xenova/flan-t5-small',
    revision: 'ec15bc2d425022b2de62f639b15cfea4bd9b8b3b',
    label: 'FLAN-T5 small (statement rewriting)',
    default: true,
    dtypes: {
      webgpu: [],
      wasm: ['q8'],
      cpu: ['q8'],
    },
    files: {
      'config.json': 1_530,
      'generation_config.json': 147,
      'tokenizer.json': 2_420_000,
      'tokenizer_config.json': 2_350,
      'onnx/encoder_model_quantized.onnx': 35_800_000,
      'onnx/decoder_model_merged_quantized.onnx': 59_300_000,
    },
    sizeNote:
      'generation_config.json (147 B) exact; config.json ("1.53 kB"), tokenizer.json ("2.42 MB"), tokenizer_config.json ("2.35 kB") and ONNX sizes (35.8 / 59.3 MB) are rounded Hub values. Root sizes read from tree/main while main was at ec15bc2; the two quantized ONNX files were last changed in 624f447 (Sep 2023, before ec15bc2) per their blob pages.',
    sha256: {
      // blob/refs%2Fpr%2F2/onnx/…: both last changed in 624f447, before the pinned commit
      'onnx/encoder_model_quantized.onnx': '968ce399b8dcdfd4c36833db51e9f78f327f7272ee9e2777fc2b3c8693208e90',
      'onnx/decoder_model_merged_quantized.onnx': '73e2e942503221d7844715a8d824f68d8a2e878483f1c923849c177f0c441df1',
    },
    memoryMb: 170,
    source: [
      'https://huggingface.co/Xenova/flan-t5-small/tree/main',
      'https://huggingface.co/Xenova/flan-t5-small/commits/ec15bc2d425022b2de62f639b15cfea4bd9b8b3b/generation_config.json',
      'https://huggingface.co/Xenova/flan-t5-small/blob/refs%2Fpr%2F2/onnx/encoder_model_quantized.onnx',
      'https://huggingface.co/Xenova/flan-t5-small/blob/refs%2Fpr%2F2/onnx/decoder_model_merged_quantized.onnx',
      'https://huggingface.co/Xenova/flan-t5-small/blob/eb11a08e4f61363b60800ae1389aee114933ab39/onnx/encoder_model_fp16.onnx',
    ],
    notes:
      'Only q8 is listed because it is the only dtype whose encoder AND merged decoder were both confirmed in this repo. fp16 very likely exists at this revision (encoder_model_fp16.onnx 70.8 MB from the "Upload fp16 ONNX weights" commit edac70c is confirmed at eb11a08; decoder_model_merged_fp16.onnx was not seen), and fp32 encoder_model.onnx / decoder_model_merged.onnx are shown as 141 / 233 MB only on a third-party mirror (webml/models) — not used. Newer main (01731f8, "Add/update the quantized ONNX model files … for Transformers.js v3" PRs #2/#3) adds q4/q4f16/int8/bnb4 files, but its full SHA and a full onnx/ listing were not found. WebGPU list is empty on purpose: the only confirmed dtype is q8, which is not trusted on WebGPU — run this model on wasm. Memory: q8 ≈ 95 MB weights → ~170 MB.',
  },
  {
    key: 'stmt-flan-t5-base',
    role: 'statements',
    id: 'Xenova/flan-t5-base',
    revision: '62ad5726a1bd1ebc5580d92686f2a88eb994257d',
    label: 'FLAN-T5 base (statement rewriting)',
    dtypes: {
      webgpu: ['fp32'],
      wasm: ['q8', 'fp32'],
      cpu: ['q8', 'fp32'],
    },
    files: {
      'config.json': 1_530,
      'generation_config.json': 147,
      'tokenizer.json': 2_420_000,
      'tokenizer_config.json': 2_350,
      'onnx/encoder_model.onnx': 439_000_000,
      'onnx/decoder_model_merged.onnx': 651_000_000,
      'onnx/encoder_model_quantized.onnx': 110_000_000,
      'onnx/decoder_model_merged_quantized.onnx': 164_000_000,
    },
    sizeNote:
      'ONNX sizes (439 / 651 / 110 / 164 MB) read from tree/62ad572…/onnx and tokenizer.json ("2.42 MB", last changed in 62ad572) are rounded Hub values. config.json (1.53 kB), generation_config.json (147 B) and tokenizer_config.json (2.35 kB) are the values on tree/main; config.json and generation_config.json show a later "Upload folder" commit there, so their size (and generation_config.json\'s presence) at 62ad572 is NOT confirmed — approximate.',
    memoryMb: 480,
    source: [
      'https://huggingface.co/Xenova/flan-t5-base/tree/62ad5726a1bd1ebc5580d92686f2a88eb994257d/onnx',
      'https://huggingface.co/Xenova/flan-t5-base/blob/200f3341ac085ce98d1bef65cc229e41eec42f30/tokenizer.json',
      'https://huggingface.co/Xenova/flan-t5-base/tree/main',
      'https://huggingface.co/Xenova/flan-t5-base/commits/main/onnx',
    ],
    notes:
      '62ad572 (May 2023) is the oldest onnx/ upload and the only revision whose full onnx listing with a full SHA was found. The onnx/ history continues with ddb2d21 (Sep 2023 re-upload), 05ef4b6 + dc39401 (fp16 weights, Mar 2024) and main c6a1b98 (Transformers.js v3 quantized variants), none with a full SHA found — pinning a newer revision would give fp16/q4 options and a fresher export; re-check before release. transformers.js treats a missing generation_config.json as non-fatal. Memory: q8 ≈ 274 MB weights → ~480 MB; fp32 ≈ 1.1 GB weights → ~2 GB.',
  },
];

/** What the app, the CLI and the runtime say and do about each model role. */
export interface RoleInfo {
  /** The role's name in sentences ("the NLI model"). */
  name: string;
  /** The core capability this role's model serves (ModelContext key). */
  capability: Capability;
  /** The CLI flag that chooses this role's model. */
  cliFlag: string;
}

/** The one role table, in the order roles are shown and loaded everywhere. */
export const ROLE_TABLE: Readonly<Record<Role, RoleInfo>> = {
  nli: { name: 'NLI', capability: 'nli', cliFlag: '--nli-model' },
  reranker: { name: 'reranker', capability: 'ranker', cliFlag: '--ranker-model' },
  embedder: { name: 'embedder', capability: 'embedder', cliFlag: '--embedder-model' },
  statements: { name: 'statement writer', capability: 'writer', cliFlag: '--statement-model' },
};

/** Every role, in table order. */
export const ROLES: readonly Role[] = Object.keys(ROLE_TABLE) as Role[];

/** The model role that serves each capability a metric may need (the role table read the other way). */
export const CAPABILITY_ROLE: Readonly<Record<Capability, Role>> = Object.fromEntries(
  ROLES.map((r) => [ROLE_TABLE[r].capability, r]),
) as Record<Capability, Role>;

/** The default entry for a role (exactly one per role by construction). */
export function defaultFor(role: Role): RegistryEntry {
  const entry = REGISTRY.find((e) => e.role === role && e.default === true);
  if (!entry) throw new Error(`registry: no default entry for role ${role}`);
  return entry;
}

/**
 * The one registry lookup: the entry a user's choice names, or undefined for a model outside the registry.
 * `ref` is a registry key (`nli-small`) or a hub id; with a hub id, the revision must be the entry's pinned one
 * (or `main`/empty, meaning "the registry's pin"); another revision is another model. `role`, when given, must match.
 */
export function lookup(ref: string, opts: { role?: Role; revision?: string } = {}): RegistryEntry | undefined {
  const id = ref.trim();
  const rev = opts.revision?.trim() ?? '';
  return REGISTRY.find(
    (e) =>
      (opts.role === undefined || e.role === opts.role) &&
      (e.key === id || (e.id === id && (rev === '' || rev === 'main' || rev === e.revision))),
  );
}
