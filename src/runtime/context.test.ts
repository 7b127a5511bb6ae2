/**
 * hostContext without a model: a host that answers `call` from a table stands in for ModelHost, so what is checked
 * is the forwarding itself — each method of each capability reaches the host by its name, after one load of its
 * role, and a method added to a core interface needs no edit here.
 */
import { describe, expect, it } from 'vitest';
import type { Capability, Embedder } from '../core/capabilities.ts';
import { VerityError } from '../core/types.ts';
import { hostContext } from './context.ts';
import type { ModelCalls } from './host-api.ts';
import type { HostError, LoadedModel, ModelSpec, Role } from './messages.ts';
import { hostError } from './messages.ts';

const spec = (role: Role, id: string): ModelSpec => ({ role, id, revision: 'r1', source: { kind: 'hub' } });

/** A host that records its loads and calls and answers each call with its method's name and arguments. */
function recordingHost(fail?: { capability: Capability; error: HostError }) {
  const loads: Role[] = [];
  const calls: [Capability, string, unknown[]][] = [];
  const host: ModelCalls = {
    load: (s) => {
      loads.push(s.role);
      return Promise.resolve({ ok: true, value: { role: s.role, id: s.id, revision: s.revision } as LoadedModel });
    },
    call: (capability, method, args) => {
      calls.push([capability, method, args]);
      if (fail?.capability === capability) return Promise.resolve({ ok: false, error: fail.error });
      return Promise.resolve({ ok: true, value: `${capability}.${method}(${JSON.stringify(args)})` });
    },
  };
  return { host, loads, calls };
}

const all = {
  nli: spec('nli', 'n'),
  reranker: spec('reranker', 'r'),
  embedder: spec('embedder', 'e'),
  statements: spec('statements', 's'),
};

describe('hostContext', () => {
  it('each method of each capability is the host’s call of it by name, after one load of its role', async () => {
    const { host, loads, calls } = recordingHost();
    const ctx = hostContext(host, all);
    const answers = await Promise.all([
      ctx.nli!.classify([{ premise: 'p', hypothesis: 'h' }]),
      ctx.nli!.classify([]),
      ctx.ranker!.score('q', ['d']),
      ctx.embedder!.embed(['t']),
      ctx.embedder!.embedTokens!(['t']),
      ctx.writer!.write([{ question: 'q', answer: 'a' }]),
    ]);
    expect(answers).toEqual([
      'nli.classify([[{"premise":"p","hypothesis":"h"}]])',
      'nli.classify([[]])',
      'ranker.score(["q",["d"]])',
      'embedder.embed([["t"]])',
      'embedder.embedTokens([["t"]])',
      'writer.write([[{"question":"q","answer":"a"}]])',
    ]);
    expect(loads).toEqual(['nli', 'reranker', 'embedder', 'statements']);
    expect(calls.map(([c, m]) => `${c}.${m}`)).toEqual([
      'nli.classify',
      'nli.classify',
      'ranker.score',
      'embedder.embed',
      'embedder.embedTokens',
      'writer.write',
    ]);
    expect(ctx.provenance).toMatchObject({ nli: { id: 'n' }, statements: { id: 's' } });
  });

  it('a method added to a core interface reaches the host as it is, with no edit here', async () => {
    const { host, calls } = recordingHost();
    // As if Embedder had gained embedRaw(texts): the host's answer table is the only other place it is written.
    const embedder = hostContext(host, { embedder: all.embedder }).embedder as Embedder & { embedRaw(texts: string[]): Promise<unknown> };
    expect(await embedder.embedRaw(['x'])).toBe('embedder.embedRaw([["x"]])');
    expect(calls).toEqual([['embedder', 'embedRaw', [['x']]]]);
  });

  it('only the capabilities of the roles given; the writer is named by its model; a capability is no promise', async () => {
    const ctx = hostContext(recordingHost().host, { statements: all.statements });
    expect(Object.keys(ctx).sort()).toEqual(['provenance', 'writer']);
    expect(ctx.writer!.name).toBe('s');
    expect(await Promise.resolve(ctx.writer)).toBe(ctx.writer);
  });

  it("a host's error is thrown as a VerityError with its code, and the load is not repeated", async () => {
    const error = hostError('inference-failed', 'n failed on cpu/fp32: boom');
    const { host, loads } = recordingHost({ capability: 'nli', error });
    const ctx = hostContext(host, { nli: all.nli });
    for (let i = 0; i < 2; i++) {
      const e = await ctx.nli!.classify([]).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(VerityError);
      expect(e).toMatchObject({ code: 'inference-failed', message: 'n failed on cpu/fp32: boom' });
    }
    expect(loads).toEqual(['nli']);
  });
});
