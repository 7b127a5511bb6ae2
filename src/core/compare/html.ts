/**
 * The comparison as one self-contained HTML page to share (`verity compare --html`, the app's "Download report
 * (HTML)"): inline CSS and SVG charts, no script, no external request (its Content-Security-Policy forbids
 * both), the same bytes from the CLI and the app for the same input and options (nothing in it depends on the
 * clock or the machine). Every text from the input — system names, questions, answers, notes — is escaped.
 *
 * Sections: the run configuration, how the input was read and paired, accuracy of every system by metric with
 * Kendall τ, then per metric the leaderboard with intervals and the human accuracy, a bar chart, metric against
 * human accuracy, the paired tests, and a capped set of questions where the systems differ.
 */
import type { CompareReport } from './report.ts';
import type { CompareTable } from './table.ts';
import type { InputInfo } from './exports.ts';
import type { SystemRow } from '../io/systems.ts';
import { disagreements } from './disagreements.ts';
import { chartNames, leaderLine, placeLabels } from './chart-names.ts';
import { f3, noRankingWhy, pairName, signed } from './format.ts';
import { judgeCells, judgeLines, leaderboardCells, pairedCells, reviewedPairCells, reviewNote } from './cells.ts';
import { cellText, pairMatrix } from './matrix.ts';
import { headlineMetric } from './headline-metric.ts';
import type { PairComparison } from './paired.ts';
import type { SplitSummary } from './split.ts';

/** What made the comparison: Verity's version, the metrics with their thresholds, the models (when any). */
export interface HtmlRun {
  verity: string;
  metrics: readonly { name: string; threshold: number }[];
  models?: Record<string, unknown>;
}

/** Questions shown per metric under "where the systems differ". */
export const HTML_EXAMPLES = 10;
/** Longest answer shown in full; longer ones are cut (the JSONL export has them whole). */
const ANSWER_CHARS = 600;

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text as HTML: markup characters escaped; control and bidirectional-override characters shown as escapes. */
export function escapeHtml(s: string): string {
  return s
    .replace(/[&<>"']/g, (c) => ESC[c]!)
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
}
const h = escapeHtml;
const cut = (s: string) => (s.length > ANSWER_CHARS ? `${s.slice(0, ANSWER_CHARS)}…` : s);

const CSS = `body{font:15px/1.45 system-ui,sans-serif;color:#111;max-width:100rem;margin:1.5rem auto;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}h3{font-size:1.05rem}
table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
thead th{background:#f3f3f3}td.n{text-align:right;white-space:nowrap}.muted{color:#555}.sig{color:#0a6b2b;font-weight:600}
.scroll{overflow-x:auto}svg{max-width:100%;height:auto}svg text{font:12px system-ui,sans-serif}
.ex{border:1px solid #ddd;border-radius:6px;padding:.4rem .7rem;margin:.6rem 0}.ex p{margin:.2rem 0}
.ok{color:#0a6b2b}.bad{color:#a30000}code{background:#f3f3f3;padding:0 .2rem}
table.matrix td{text-align:center;min-width:2rem}td.win{color:#0a6b2b;font-weight:700}td.loss{color:#a30000;font-weight:700}
details{margin:.5rem 0}summary{cursor:pointer}
table.cards{font-size:13px}table.cards th{white-space:normal}
@media (max-width:48rem){table.cards,table.cards tbody,table.cards tr,table.cards td{display:block}table.cards thead{display:none}
table.cards tr{border:1px solid #ddd;border-radius:6px;margin:.5rem 0;padding:.3rem .5rem}
table.cards td{border:0;padding:.1rem 0;text-align:left;white-space:normal}
table.cards td::before{content:attr(data-label);display:inline-block;min-width:45%;color:#555;padding-right:.5rem}}`;

/** Who beats whom on accuracy (row vs column), each cell's Δ and Holm p in its title: pairs of many systems in one screen. */
function matrixHtml(order: readonly string[], pairs: readonly PairComparison[], short: Map<string, string>, testid: string): string {
  const m = pairMatrix(order, pairs);
  const name = (s: string) => h(short.get(s) ?? s);
  const head = ['', ...m.systems.map(name), 'wins / losses'];
  // Only a significant verdict colours its cell.
  const tdClass = (v: string) => (v === 'win' || v === 'loss' ? v : '');
  const body = m.systems
    .map((s, i) => {
      const cells = m.cells[i]!.map((c, j) => {
        if (!c) return '<td class=""></td>';
        const t = cellText(s, m.systems[j]!, c);
        return `<td class="${tdClass(c.verdict)}"><span title="${h(t.words)}" aria-label="${h(t.words)}" class="${c.verdict}">${t.symbol}</span></td>`;
      });
      return `<tr><th scope="row"><strong>${name(s)}</strong></th>${cells.join('')}<td class="">${m.wins[i]} / ${m.losses[i]}</td></tr>`;
    })
    .join('\n');
  const th = head.map((c) => `<th scope="col">${c}</th>`).join('');
  return `<div class="scroll"><table class="matrix" data-testid="${testid}"><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table></div><p class="muted">▲ the row system is significantly more accurate than the column system, ▼ less, · not significant, – no shared question (Holm-corrected; hover a cell for Δ and p).</p>`;
}

/**
 * A table that stays whole at any width: on a narrow screen (a phone) each row becomes a card, each cell labelled with
 * its column's name (data-label, shown by the CSS), as the app's tables do; wider, its type shrinks a little.
 */
function tableHtml(head: string[], rows: string[][], numeric: (j: number) => boolean = () => false, testid = ''): string {
  const th = head.map((c) => `<th scope="col">${c}</th>`).join('');
  // The headers are HTML already (escaped text): an attribute takes the text without tags, quotes escaped.
  const label = head.map((c) => c.replace(/<[^>]*>/g, '').replaceAll('"', '&quot;'));
  const body = rows
    .map(
      (r) =>
        `<tr>${r.map((c, j) => `<td${numeric(j) ? ' class="n"' : ''}${label[j] ? ` data-label="${label[j]}"` : ''}>${c}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<div class="scroll"><table class="cards"${testid ? ` data-testid="${testid}"` : ''}><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

const n2 = (x: number) => Number(x.toFixed(2));

/** The dot beside a system's bar: its reviewed accuracy after a review, else its human accuracy. */
const dotOf = (e: CompareReport['leaderboard']['metrics'][number]['entries'][number]): number | null =>
  e.reviewed ? e.reviewed.value : (e.human?.accuracy ?? null);

/** Bars of accuracy with interval whiskers and the human (or reviewed) accuracy as a dot, one row per system. */
function barsSvg(entries: CompareReport['leaderboard']['metrics'][number]['entries'], short: Map<string, string>, metric: string): string {
  const label = Math.max(...entries.map((e) => (short.get(e.system) ?? e.system).length));
  const left = Math.min(260, 16 + 7 * label);
  const width = left + 400;
  const row = 26;
  const height = 30 + row * entries.length + 24;
  const x = (v: number) => n2(left + v * 380);
  const parts: string[] = [];
  for (let t = 0; t <= 10; t += 2) {
    const v = t / 10;
    parts.push(`<line x1="${x(v)}" x2="${x(v)}" y1="20" y2="${height - 24}" stroke="#ddd"/>`);
    parts.push(`<text x="${x(v)}" y="${height - 8}" text-anchor="middle">${v.toFixed(1)}</text>`);
  }
  entries.forEach((e, i) => {
    const y = 20 + i * row;
    const mid = n2(y + row / 2);
    parts.push(`<text x="${left - 6}" y="${n2(mid + 4)}" text-anchor="end">${h(short.get(e.system) ?? e.system)}</text>`);
    if (e.accuracy.value !== null)
      parts.push(
        `<rect x="${left}" y="${y + 4}" width="${n2(x(e.accuracy.value) - left)}" height="${row - 8}" fill="#0b57d0" fill-opacity="0.3"/>`,
      );
    if (e.accuracy.ci)
      parts.push(
        `<line x1="${x(e.accuracy.ci[0])}" x2="${x(e.accuracy.ci[1])}" y1="${mid}" y2="${mid}" stroke="#111" stroke-width="1.5"/>`,
        `<line x1="${x(e.accuracy.ci[0])}" x2="${x(e.accuracy.ci[0])}" y1="${y + 8}" y2="${y + row - 8}" stroke="#111"/>`,
        `<line x1="${x(e.accuracy.ci[1])}" x2="${x(e.accuracy.ci[1])}" y1="${y + 8}" y2="${y + row - 8}" stroke="#111"/>`,
      );
    const dot = dotOf(e);
    if (dot !== null) parts.push(`<circle cx="${x(dot)}" cy="${mid}" r="4.5" fill="#a30000" stroke="white"/>`);
  });
  const desc = entries
    .map((e) => `${e.system} ${f3(e.accuracy.value)}${dotOf(e) !== null ? ` (${e.reviewed ? 'reviewed' : 'human'} ${f3(dotOf(e))})` : ''}`)
    .join(', ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img"><title>${h(`${metric} accuracy per system: ${desc}`)}</title>${parts.join('')}</svg>`;
}

/** Metric accuracy against human accuracy per system, with the diagonal; labels placed apart. */
function scatterSvg(
  gaps: { system: string; metricAccuracy: number; humanAccuracy: number }[],
  short: Map<string, string>,
  metric: string,
  against = 'human accuracy',
): string {
  const size = 340;
  const [ml, mr, mt, mb] = [48, 20, 20, 40];
  const xs = gaps.flatMap((g) => [g.metricAccuracy, g.humanAccuracy]);
  const lo = Math.max(0, Math.floor((Math.min(...xs) - 0.05) * 10) / 10);
  const hi = Math.min(1, Math.ceil((Math.max(...xs) + 0.05) * 10) / 10);
  const px = (v: number) => n2(ml + ((v - lo) / (hi - lo)) * (size - ml - mr));
  const py = (v: number) => n2(size - mb - ((v - lo) / (hi - lo)) * (size - mt - mb));
  const parts: string[] = [
    `<rect x="${ml}" y="${mt}" width="${size - ml - mr}" height="${size - mt - mb}" fill="none" stroke="#ccc"/>`,
    `<line x1="${px(lo)}" y1="${py(lo)}" x2="${px(hi)}" y2="${py(hi)}" stroke="#555" stroke-dasharray="4 3"/>`,
    `<text x="${n2((ml + size - mr) / 2)}" y="${size - 8}" text-anchor="middle">${h(against)}</text>`,
    `<text x="12" y="${n2((mt + size - mb) / 2)}" text-anchor="middle" transform="rotate(-90 12 ${n2((mt + size - mb) / 2)})">${h(metric)} accuracy</text>`,
    `<text x="${ml}" y="${size - mb + 14}" text-anchor="middle">${lo.toFixed(1)}</text>`,
    `<text x="${size - mr}" y="${size - mb + 14}" text-anchor="middle">${hi.toFixed(1)}</text>`,
    `<text x="${ml - 4}" y="${py(lo)}" text-anchor="end">${lo.toFixed(1)}</text>`,
    `<text x="${ml - 4}" y="${n2(py(hi) + 8)}" text-anchor="end">${hi.toFixed(1)}</text>`,
  ];
  const dots = gaps.map((g) => ({ x: px(g.humanAccuracy), y: py(g.metricAccuracy), text: short.get(g.system) ?? g.system }));
  const placed = placeLabels(dots, { width: size, height: size });
  dots.forEach((d, i) => {
    parts.push(`<circle cx="${d.x}" cy="${d.y}" r="5" fill="#0b57d0"/>`);
    const l = placed[i]!;
    const lead = leaderLine(d, l);
    if (lead) parts.push(`<line x1="${n2(lead.x1)}" y1="${n2(lead.y1)}" x2="${n2(lead.x2)}" y2="${n2(lead.y2)}" stroke="#888"/>`);
    parts.push(`<text x="${n2(l.x)}" y="${n2(l.y)}" text-anchor="${l.anchor}">${h(d.text)}</text>`);
  });
  const desc = gaps.map((g) => `${g.system} ${f3(g.metricAccuracy)} vs ${f3(g.humanAccuracy)}`).join(', ');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}" role="img"><title>${h(`${metric} accuracy against ${against}: ${desc}`)}</title>${parts.join('')}</svg>`;
}

const mark = (d: number) => (d === 1 ? '<span class="ok">correct</span>' : d === 0 ? '<span class="bad">wrong</span>' : '—');

/** Up to HTML_EXAMPLES questions where the systems differ under `metric`, each system's answer beside its decision. */
function examplesHtml(t: CompareTable, rows: readonly SystemRow[], metric: string): string {
  const found = disagreements(t, { metric });
  if (found.length === 0) return '<p class="muted">The systems agree on every question decided for two or more of them.</p>';
  const Q = t.keys.length;
  const shown = found.slice(0, HTML_EXAMPLES).map((d) => {
    let first: SystemRow | undefined;
    const answers = t.systems.map((system, s) => {
      const i = t.rowOf[s * Q + d.q]!;
      if (i < 0) return `<li>${h(system)}: <span class="muted">no answer</span></li>`;
      const r = rows[i]!;
      first ??= r;
      const human = t.human[s * Q + d.q]!;
      return `<li><strong>${h(system)}</strong> (${mark(d.decisions[s]!)}${human >= 0 ? `; human: ${mark(human)}` : ''}): ${h(cut(r.candidate))}</li>`;
    });
    return `<div class="ex"><p><strong>Q:</strong> ${h(first?.question ?? '')}</p><p><strong>Gold:</strong> ${h(first?.golds.join(' | ') ?? '')}</p><ul>${answers.join('')}</ul></div>`;
  });
  const more =
    found.length > HTML_EXAMPLES ? ` (the first ${HTML_EXAMPLES} of ${found.length.toLocaleString('en')})` : ` (${found.length})`;
  return `<details><summary>Questions where the systems differ${more}</summary>${shown.join('\n')}</details>`;
}

/** The files each system came from, by base name (a shared page names no folder of this machine). */
function inputsHtml(sources: Record<string, string>): string {
  const base = (f: string) =>
    f
      .split(', ')
      .map((p) => p.split(/[\\/]/).pop() ?? p)
      .join(', ');
  const byFile = new Map<string, string[]>();
  for (const [s, f] of Object.entries(sources)) byFile.set(base(f), [...(byFile.get(base(f)) ?? []), s]);
  if (byFile.size === 1) return h([...byFile.keys()][0]!);
  return [...byFile].map(([f, s]) => `${h(f)}: ${s.map(h).join(', ')}`).join('<br>');
}

/** The whole page. `rows` are the comparison's input rows (for the examples' questions and answers). */
export function compareHtml(rep: CompareReport, table: CompareTable, rows: readonly SystemRow[], input: InputInfo, run: HtmlRun): string {
  const b = rep.leaderboard.bootstrap;
  const { prefix, short: shortNames } = chartNames(rep.systems);
  const short = new Map(rep.systems.map((s, i) => [s, shortNames[i]!] as const));
  const out: string[] = [];
  out.push(
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(`Verity comparison: ${rep.systems.join(', ')}`)}</title>`,
    `<style>${CSS}</style></head><body>`,
    `<h1>Comparison of ${rep.systems.length} systems</h1>`,
    `<p>${rep.questions.toLocaleString('en')} questions, ${rep.rows.toLocaleString('en')} rows (${rep.labelled.toLocaleString('en')} with a human label). ` +
      `${Math.round(b.level * 100)}% bootstrap intervals over questions, ${b.resamples} resamples, seed ${b.seed}; α = ${rep.paired.alpha}, Holm-corrected.</p>`,
  );

  const note = reviewNote(rep);
  if (note) out.push(`<p data-testid="html-review-note">${h(note)}</p>`);

  const lead = headlineMetric(rep);
  const headline = rep.leaderboard.metrics.find((m) => m.metric === lead?.metric);
  if (headline && lead) {
    const board = leaderboardCells(
      headline,
      rep.ranking?.metrics.find((m) => m.metric === headline.metric),
    );
    out.push(
      `<h2>The answer: ${lead.basis === 'reviewed' ? 'ranked by the reviewed estimate' : `ranked by ${h(headline.metric)}`}</h2>`,
      `<p data-testid="html-headline-why">${h(lead.why[0]!.toUpperCase() + lead.why.slice(1))}.</p>`,
      tableHtml(
        board.head,
        board.rows.map((r) => r.map(h)),
        (j) => j !== 2,
        'html-headline',
      ),
      '<p class="muted">“can be”: the ranks the system can hold given the intervals. Every metric\'s section follows; how the input was read and the run are at the end.</p>',
    );
  }

  out.push('<h2>Accuracy of each system, by metric</h2>');
  const first = rep.leaderboard.metrics[0]?.entries ?? [];
  const reviewed = rep.leaderboard.metrics[0]?.rankedBy === 'reviewed';
  const truth = new Map(first.map((e) => [e.system, reviewed ? (e.reviewed?.value ?? null) : (e.human?.accuracy ?? null)] as const));
  const against = reviewed ? 'reviewed' : 'human';
  const overview: string[][] = [];
  if (rep.ranking)
    overview.push([
      reviewed ? `reviewed estimate (${h(rep.leaderboard.metrics[0]!.reference ?? '')})` : 'human labels',
      ...rep.systems.map((s) => f3(truth.get(s))),
      '—',
    ]);
  for (const m of rep.leaderboard.metrics) {
    const r = rep.ranking?.metrics.find((x) => x.metric === m.metric);
    overview.push([
      h(m.metric),
      ...rep.systems.map((s) => f3(m.entries.find((e) => e.system === s)?.accuracy.value)),
      ...(rep.ranking ? [signed(r?.kendallTau)] : []),
    ]);
  }
  out.push(
    tableHtml(
      ['judged by', ...rep.systems.map(h), ...(rep.ranking ? [`Kendall τ vs ${against}`] : [])],
      overview,
      (j) => j > 0,
      'html-overview',
    ),
  );

  // The lead metric's section first, so its who-beats-whom matrix is the first one.
  const sections = [...rep.leaderboard.metrics].sort((a, b) => Number(b.metric === lead?.metric) - Number(a.metric === lead?.metric));
  for (const lb of sections) {
    out.push(`<h2>${h(lb.metric)} <span class="muted">(correct when score ≥ ${lb.threshold})</span></h2>`);
    const ranking = rep.ranking?.metrics.find((m) => m.metric === lb.metric);
    const hasHuman = lb.entries.some((e) => e.human);
    const board = leaderboardCells(lb, ranking);
    out.push(
      tableHtml(
        board.head,
        board.rows.map((r) => r.map(h)),
        (j) => j !== 2,
        `html-leaderboard-${lb.metric}`,
      ),
    );
    out.push(
      `<figure>${barsSvg(lb.entries, short, lb.metric)}<figcaption class="muted">Bars: accuracy; whiskers: 95% interval${hasHuman ? '; red dots: human accuracy' : reviewed ? '; red dots: the reviewed estimate' : ''}.</figcaption></figure>`,
    );
    if (ranking && rep.systems.length > 1) {
      const why = noRankingWhy(ranking);
      if (why)
        out.push(
          `<p>Whether ${h(lb.metric)} ranks the systems as the ${reviewed ? 'reviewed estimate does' : 'humans do'} is not measured: ${h(why)}.</p>`,
        );
      else {
        const names = ranking.discordant.map((d) => h(pairName(d.a, d.b)));
        const total = (ranking.systems * (ranking.systems - 1)) / 2;
        const disc = names.length === 0 ? 'none' : names.length <= 5 ? names.join(', ') : `${names.length} of ${total} (listed below)`;
        out.push(
          `<p>Metric vs ${reviewed ? `reviewed (${h(ranking.reference ?? '')})` : 'human'} ranking: Kendall τ = <strong>${f3(ranking.kendallTau)}</strong> over ${ranking.systems} systems; pairs ordered the other way: ${disc}.</p>`,
        );
        if (names.length > 5)
          out.push(`<details><summary>The ${names.length} pairs ordered the other way</summary><p>${names.join(', ')}</p></details>`);
        const points = ranking.gaps.filter(
          (g): g is typeof g & { metricAccuracy: number; humanAccuracy: number } => g.metricAccuracy !== null && g.humanAccuracy !== null,
        );
        if (points.length)
          out.push(
            `<figure>${scatterSvg(points, short, lb.metric, reviewed ? 'reviewed estimate' : 'human accuracy')}<figcaption class="muted">Below the dashed line the metric under-credits the system.</figcaption></figure>`,
          );
      }
    }
    const pairs = rep.paired.metrics.find((m) => m.metric === lb.metric)?.pairs ?? [];
    if (pairs.length) {
      out.push('<h3>Who beats whom (accuracy, paired tests on shared questions)</h3>');
      out.push(
        matrixHtml(
          lb.entries.map((e) => e.system),
          pairs,
          short,
          `html-matrix-${lb.metric}`,
        ),
      );
      out.push(
        `<details${pairs.length <= 6 ? ' open' : ''}><summary>Every pair's paired tests (A − B on shared questions, ${pairs.length} pairs)</summary>`,
      );
      const paired = pairedCells(pairs, true);
      // A verdict that names the better system is significant: shown as such.
      const cell = (c: string, j: number) => ((j === 7 || j === 11) && c.includes(' > ') ? `<span class="sig">${h(c)}</span>` : h(c));
      out.push(
        tableHtml(
          paired.head,
          paired.rows.map((r) => r.map(cell)),
          (j) => j > 1 && j !== 7 && j !== 11,
          `html-paired-${lb.metric}`,
        ),
        '</details>',
      );
    }
    if (rep.systems.length > 1) out.push(examplesHtml(table, rows, lb.metric));
  }
  const reviewedPairs = rep.paired.metrics.find((m) => m.metric === 'reviewed')?.pairs ?? [];
  if (reviewedPairs.length) {
    out.push('<h2>The review: paired differences of the estimated accuracies</h2>');
    out.push(
      matrixHtml(
        (rep.leaderboard.metrics[0]?.entries ?? []).map((e) => e.system),
        reviewedPairs,
        short,
        'html-matrix-reviewed',
      ),
    );
    const cells = reviewedPairCells(reviewedPairs);
    const cell = (c: string, j: number) => (j === 6 && c.includes(' > ') ? `<span class="sig">${h(c)}</span>` : h(c));
    out.push(
      `<details${reviewedPairs.length <= 6 ? ' open' : ''}><summary>Every pair's difference (${reviewedPairs.length} pairs)</summary>`,
      tableHtml(
        cells.head,
        cells.rows.map((r) => r.map(cell)),
        (j) => j > 1 && j !== 6,
        'html-paired-reviewed',
      ),
      '</details>',
    );
  }
  if (rep.judge) {
    const j = judgeCells(rep.judge);
    out.push(
      `<h2>What the review says about the judge (${h(rep.judge.reference)})</h2>`,
      `<p class="muted">From your answers: how far ${h(rep.judge.reference)}'s accuracy is from the reviewed one, the share of correct answers it rejects and of wrong ones it credits, ${rep.judge.interval === 'anytime' ? 'with intervals that hold wherever you stopped' : 'with intervals'}.</p>`,
      tableHtml(
        j.head,
        j.rows.map((r) => r.map(h)),
        (j) => j > 0,
        'html-judge',
      ),
      ...judgeLines(rep.judge).map((l) => `<p data-testid="html-judge-line">${h(l)}</p>`),
    );
  }
  out.push('<details data-testid="html-notes"><summary>Reading notes: the run, and how the input was read</summary>', '<h2>Run</h2>');
  const runRows = [
    ['Verity', h(run.verity)],
    ['metrics (correct when score ≥ threshold)', run.metrics.map((m) => `${h(m.name)} ≥ ${m.threshold}`).join(', ')],
    ['inputs', inputsHtml(input.sources)],
  ];
  if (run.models && Object.keys(run.models).length)
    runRows.push([
      'models',
      Object.entries(run.models)
        .map(([role, m]) => `${h(role)}: <code>${h(JSON.stringify(m))}</code>`)
        .join('<br>'),
    ]);
  out.push(tableHtml(['', ''], runRows, () => false, 'html-run'));

  out.push('<h2>How the input was read</h2>', `<p data-testid="html-pairing">${h(input.pairing || `rows paired by ${input.keyBy}`)}.</p>`);
  const notes = input.notes.filter((n) => n !== input.pairing);
  if (notes.length) out.push(`<ul>${notes.map((n) => `<li>${h(n)}</li>`).join('')}</ul>`);
  if (prefix) out.push(`<p class="muted">Every system's name begins with “${h(prefix)}”; the charts leave it out.</p>`);
  out.push('</details>');
  out.push(
    `<p class="muted">Made by Verity ${h(run.verity)}, on this machine; nothing in this page was sent anywhere.</p>`,
    '</body></html>',
    '',
  );
  return out.join('\n');
}

/**
 * One page for a comparison split by a column (a dataset, a subject): the systems × splits tables with their macro
 * averages first, then each split's whole comparison, as compareHtml writes it, under its own heading.
 */
export function compareSplitsHtml(
  column: string,
  splits: readonly { split: string; rows: number; report: CompareReport; table: CompareTable; splitRows: readonly SystemRow[] }[],
  summaries: readonly SplitSummary[],
  input: InputInfo,
  run: HtmlRun,
): string {
  const systems = [...new Set(splits.flatMap((e) => e.report.systems))];
  const out: string[] = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(`Verity comparison by ${column}: ${systems.join(', ')}`)}</title>`,
    `<style>${CSS}</style></head><body>`,
    `<h1>Comparison of ${systems.length} systems over ${splits.length} splits by ${h(column)}</h1>`,
    `<p>${splits.map((e) => `${h(e.split)} (${e.rows.toLocaleString('en')} rows)`).join(', ')}. Every split weighs alike in a macro average.</p>`,
  ];
  for (const sum of summaries) {
    const head = ['system', ...sum.splits.map(h), `macro average [${Math.round(sum.level * 100)}% CI]`];
    const rows = sum.systems.map((r) => [
      h(r.system),
      ...sum.splits.map((k) => {
        const c = r.cells[k]!;
        return c.accuracy === null ? '—' : `${f3(c.accuracy)} (${c.n})`;
      }),
      r.macro === null
        ? '—'
        : `${f3(r.macro)} [${f3(r.ci![0])}, ${f3(r.ci![1])}]${r.missing.length ? ` without ${r.missing.map(h).join(', ')}` : ''}`,
    ]);
    out.push(
      `<h2>${h(sum.metric)}: accuracy per split</h2>`,
      tableHtml(head, rows, (j) => j > 0, `html-splits-${sum.metric}`),
    );
    if (sum.small.length)
      out.push(
        `<p class="muted">Fewer than 30 questions for some system in ${sum.small.map(h).join(', ')}: the interval is less sure there.</p>`,
      );
  }
  for (const e of splits) {
    const page = compareHtml(e.report, e.table, e.splitRows, input, run);
    const body = page.slice(page.indexOf('<body>') + '<body>'.length, page.lastIndexOf('<p class="muted">Made by Verity'));
    out.push(`<section data-testid="html-split"><h1>${h(column)}: ${h(e.split)}</h1>`, body.replace(/<h1>[^<]*<\/h1>/, ''), '</section>');
  }
  out.push(
    `<p class="muted">Made by Verity ${h(run.verity)}, on this machine; nothing in this page was sent anywhere.</p>`,
    '</body></html>',
    '',
  );
  return out.join('\n');
}
