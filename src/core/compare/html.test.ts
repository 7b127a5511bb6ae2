import { describe, expect, it } from 'vitest';
import { parseTable } from '../io/parse.ts';
import { coverage, mapSystemRows } from '../io/systems.ts';
import { compareReport } from './report.ts';
import { compareHtml, escapeHtml } from './html.ts';
import type { MetricResult } from '../types.ts';
import { ResultTable } from '../result-table.ts';
import type { RowResults } from '../scoring.ts';

/** Results as every surface keeps them (columns), from one object per row. */
const T = (rs: readonly RowResults[]) => ResultTable.of(rs, [...new Set(rs.flatMap((x) => Object.keys(x)))]);

/** Hostile text where a page would run it: names, questions, answers and golds. */
const XSS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '</title><script src=https://evil.example/x.js></script>',
  'javascript:alert(1)',
  '\u202egnp.exe',
  '=cmd|" /C calc"!A0',
];

function page(systems: string[]) {
  const table = parseTable(
    systems
      .flatMap((s, k) =>
        XSS.map((x, i) =>
          JSON.stringify({
            id: `q${i}`,
            model: s,
            question: `${x} question ${i}?`,
            gold: `${x}gold`,
            candidate: k ? `${x}` : `${x}gold`,
            label: k === 0,
          }),
        ),
      )
      .join('\n'),
  );
  const input = mapSystemRows(table);
  const results = input.rows.map((r): Record<string, MetricResult> => {
    const hit = r.candidate.endsWith('gold');
    return { exact_match: { score: hit ? 1 : 0, decision: hit, explanation: '' } };
  });
  const { report, table: t } = compareReport(input.rows, T(results), [{ name: 'exact_match', threshold: 1 }], { resamples: 50, seed: 1 });
  const info = {
    ...input,
    sources: Object.fromEntries(input.systems.map((s) => [s, '/home/me/private/runs.jsonl'])),
    coverage: coverage(input.rows, input.systems),
  };
  return compareHtml(report, t, input.rows, info, { verity: '0.0.0-test', metrics: [{ name: 'exact_match', threshold: 1 }] });
}

/** The page's own tags (text from the input has no raw "<"): name and attributes. */
const tags = (html: string) => [...html.matchAll(/<([a-z][a-z0-9]*)([^>]*)>/gi)].map((m) => ({ name: m[1]!.toLowerCase(), attrs: m[2]! }));
const OWN = new Set(
  'html head meta title style body h1 h2 h3 p div table thead tbody tr th td svg line rect circle text figure figcaption details summary ul li strong span code br'.split(
    ' ',
  ),
);

const at = (s: string, t: string, from = 0) => s.indexOf(t, from);

describe('the HTML report', () => {
  const systems = ['evouna/NQ/<b>fid</b>', 'evouna/NQ/"gpt4"', "evouna/NQ/o'neil"];
  const html = page(systems);

  it('escapes every text from the input: no tag, attribute or script of its own survives', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img|<svg onload|<b>/i);
    for (const t of tags(html)) {
      expect(OWN.has(t.name), t.name).toBe(true);
      expect(t.attrs).not.toMatch(/\bon[a-z]+\s*=|javascript:|\b(?:src|href)\s*=/i);
    }
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('evouna/NQ/&lt;b&gt;fid&lt;/b&gt;');
    // A bidirectional override is shown as its escape, not obeyed.
    expect(html).not.toContain('\u202e');
    expect(html).toContain('\\u202egnp.exe');
  });

  it('makes no request: a policy that forbids scripts and fetches, no external address, no folder of this machine', () => {
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    );
    // The only address in an attribute is SVG's namespace (a name, never fetched).
    for (const t of tags(html)) for (const m of t.attrs.matchAll(/https?:\/\/[^\s"'<]+/g)) expect(m[0]).toBe('http://www.w3.org/2000/svg');
    expect(html).not.toContain('/home/me/private');
    expect(html).toContain('runs.jsonl');
  });

  it('has the leaderboard, the paired tests, the pairing and the examples', () => {
    expect(html).toContain('data-testid="html-leaderboard-exact_match"');
    expect(html).toContain('data-testid="html-paired-exact_match"');
    expect(html).toContain('rows paired by id');
    expect(html).toContain('Questions where the systems differ');
    expect(html).toContain("Every system's name begins with “evouna/NQ/”");
    expect(html).toContain('<td data-label="A">evouna/NQ/&lt;b&gt;fid&lt;/b&gt;</td><td data-label="B">evouna/NQ/&quot;gpt4&quot;</td>');
  });

  it('labels every cell of a table with its column, so that a narrow screen shows each row as a card', () => {
    for (const [, table] of html.matchAll(/<table class="cards"[^>]*>([\s\S]*?)<\/table>/g)) {
      const head = [...table!.matchAll(/<th scope="col">([\s\S]*?)<\/th>/g)].map((m) => m[1]!.replace(/<[^>]*>/g, ''));
      // A table of name–value lines (the run) has no column names to give.
      if (head.every((h) => h === '')) continue;
      for (const [, row] of table!.matchAll(/<tr>(<td[\s\S]*?)<\/tr>/g)) {
        const labels = [...row!.matchAll(/<td[^>]*?data-label="([^"]*)"/g)].map((m) => m[1]);
        expect(labels).toEqual(head.slice(0, labels.length).map((h) => h.replaceAll('"', '&quot;')));
        expect(labels.length).toBe(head.length);
      }
    }
    expect(html).toMatch(/@media \(max-width:48rem\)\{table\.cards/);
  });

  it("opens with the answer: the first metric's leaderboard, then every metric; the reading notes folded at the end", () => {
    const pos = (t: string) => html.indexOf(t);
    expect(pos('data-testid="html-headline"')).toBeGreaterThan(0);
    expect(pos('data-testid="html-headline"')).toBeLessThan(pos('Accuracy of each system, by metric'));
    expect(pos('data-testid="html-notes"')).toBeGreaterThan(pos('data-testid="html-leaderboard-exact_match"'));
    expect(pos('data-testid="html-run"')).toBeGreaterThan(pos('data-testid="html-notes"'));
  });

  it('shows the paired verdicts as a systems × systems matrix, each cell worded, the full table folded below', () => {
    const m = html.slice(
      at(html, 'data-testid="html-matrix-exact_match"'),
      at(html, '</table>', at(html, 'data-testid="html-matrix-exact_match"')),
    );
    // Three systems: a row and a column each, six off-diagonal cells, each with its words.
    expect(m.match(/<th scope="row">/g)).toHaveLength(3);
    expect(m.match(/aria-label="[^"]+ (?:&gt;|&lt;|vs) [^"]+"/g)).toHaveLength(6);
    expect(html.indexOf('<details open><summary>Every pair')).toBeLessThan(html.indexOf('data-testid="html-paired-exact_match"'));
  });

  it('is the same bytes for the same input, whatever the clock', () => {
    expect(page(systems)).toBe(html);
  });

  it('escapeHtml shows C1 controls and bidirectional marks as escapes', () => {
    expect(escapeHtml('a\u009bb\u0085c\u202ed\u200fe')).toBe('a\\u009bb\\u0085c\\u202ed\\u200fe');
  });

  it('escapeHtml', () => {
    expect(escapeHtml(`<a href="x">'&'</a>\u0007`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;\\u0007');
  });
});
