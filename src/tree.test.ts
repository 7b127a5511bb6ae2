/**
 * The shape of the tree, kept: the scoring worker stays a thin shell around the session, and the
 * Score page stays layout (its run lives in app/lib/run.svelte.ts). A page that grows past these sizes
 * has taken logic back that belongs in a module with its own tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const lines = (rel: string) => readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8').split('\n').length;

describe('tree shape', () => {
  it.each([
    ['../workers/score.worker.ts', 80],
    ['app/pages/Score.svelte', 250],
  ])('%s is under %i lines', (rel, limit) => {
    expect(lines(rel)).toBeLessThan(limit);
  });

  it('no file under src/session/ is over 400 lines', () => {
    const dir = fileURLToPath(new URL('session/', import.meta.url));
    const over = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => [f, lines(`session/${f}`)] as const)
      .filter(([, n]) => n > 400);
    expect(over).toEqual([]);
  });

  it('the Score page keeps no run logic of its own (no worker API, no recovery)', () => {
    const page = readFileSync(fileURLToPath(new URL('app/pages/Score.svelte', import.meta.url)), 'utf8');
    expect(page).not.toMatch(/scoreApi|resetScoreWorker|fallbackSpecs|RecoveryBudget/);
  });
});

/** Every module under src/ and workers/ (tests left out) with the modules of the tree it imports, type imports too. */
function importGraph(): Map<string, string[]> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (/\.(ts|svelte)$/.test(e.name) && !/\.test\.ts$/.test(e.name)) files.push(path);
    }
  };
  walk(join(root, 'src'));
  walk(join(root, 'workers'));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  // `import … from '…'`, `export … from '…'`, side-effect imports and `import('…')` (inline types, lazy modules).
  const spec = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const to = new Set<string>();
    for (const m of text.matchAll(spec)) {
      const target = resolve(dirname(f), m[1]!.replace(/\?.*$/, ''));
      if (known.has(target) && target !== f) to.add(target);
    }
    graph.set(
      relative(root, f),
      [...to].map((t) => relative(root, t)),
    );
  }
  return graph;
}

describe('imports', () => {
  // three cycles had grown (capabilities ↔ evidence, parse ↔ utf8, session/api ↔ compare ↔ session),
  // all through type imports, which the lint rule (import-x/no-cycle) does not follow.
  it('no module imports itself back, type imports included', () => {
    const graph = importGraph();
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]) => {
      state.set(f, 'open');
      for (const t of graph.get(f) ?? []) {
        if (state.get(t) === 'open') cycles.push([...path.slice(path.indexOf(t)), t].join(' → '));
        else if (!state.has(t)) visit(t, [...path, t]);
      }
      state.set(f, 'done');
    };
    for (const f of graph.keys()) if (!state.has(f)) visit(f, [f]);
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles).toEqual([]);
  });
});

describe('pins', () => {
  it('onnxruntime-web is pinned exactly, to the version transformers.js (pinned exactly too) depends on', () => {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const tjs = JSON.parse(
      readFileSync(fileURLToPath(new URL('../node_modules/@huggingface/transformers/package.json', import.meta.url)), 'utf8'),
    ) as {
      version: string;
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies['@huggingface/transformers']).toBe(tjs.version);
    expect(pkg.dependencies['onnxruntime-web']).toBe(tjs.dependencies['onnxruntime-web']);
  });
});
