/**
 * A Playground example in the page's address (`#/playground?q=…&g=…&g=…&c=…&ch=…`), so that a link opens it: for
 * homework, slides and a class's shared notes. Golds and choices repeat their key, one value each, in order.
 */
export interface SharedExample {
  question: string;
  golds: string[];
  candidate: string;
  choices: string[];
}

/** The Playground's hash for an example. */
export function exampleHash(e: SharedExample): string {
  const p = new URLSearchParams();
  p.set('q', e.question);
  for (const g of e.golds) p.append('g', g);
  p.set('c', e.candidate);
  for (const c of e.choices) p.append('ch', c);
  return `#/playground?${p.toString()}`;
}

/** The example a Playground hash holds, or null when it holds none (a plain `#/playground`, another page). */
export function exampleFromHash(hash: string): SharedExample | null {
  const m = /^#\/?playground\?(.*)$/s.exec(hash);
  if (!m) return null;
  const p = new URLSearchParams(m[1]);
  if (!p.has('q') && !p.has('g') && !p.has('c')) return null;
  return { question: p.get('q') ?? '', golds: p.getAll('g'), candidate: p.get('c') ?? '', choices: p.getAll('ch') };
}
