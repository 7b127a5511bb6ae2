/** The CLI as a module: importing it runs nothing, and `main` runs a command in process and answers its exit code. */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => vi.restoreAllMocks());

describe('main', () => {
  it('is imported without running, and runs a command when called', async () => {
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => (out.push(String(s)), true));
    const { main, program } = await import('./main.ts');
    expect(out).toEqual([]);
    expect(program().commands.map((c) => c.name())).toEqual([
      'score',
      'merge',
      'evaluate',
      'calibrate',
      'statements',
      'explain',
      'compare',
      'review',
      'agreement',
      'metrics',
    ]);
    expect(
      await main([
        'node',
        'verity',
        'explain',
        '--question',
        'Who wrote Hamlet?',
        '--gold',
        'Shakespeare',
        '--candidate',
        'Shakespeare',
        '--metrics',
        'exact_match',
        '--json',
      ]),
    ).toBe(0);
    write.mockRestore();
    expect(JSON.parse(out.join('')).metrics.exact_match).toMatchObject({ score: 1, decision: true });
  });

  it('answers a usage error with exit 1 and one line on stderr', async () => {
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (err.push(String(s)), true));
    const { main } = await import('./main.ts');
    expect(await main(['node', 'verity', 'score'])).toBe(1);
    expect(err.join('')).toMatch(/^verity: missing required argument 'file' \(run with --help for usage\)\n$/);
  });
});
