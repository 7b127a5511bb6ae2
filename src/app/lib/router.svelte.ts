/** Hash routing for the four pages: no library needed, and deep links (`#/learn`) work from a static host. */
export const PAGES = [
  { path: 'score', title: 'Score' },
  { path: 'playground', title: 'Playground' },
  { path: 'learn', title: 'Learn' },
  { path: 'models', title: 'Models' },
] as const;
export type PagePath = (typeof PAGES)[number]['path'];

/**
 * The page a hash names: `#/learn` (or `#learn`, `#/learn?x`) → learn, none or an unknown route → score.
 * A hash that is not a route but an in-page anchor (`#main`, `#learn-metric-bleu`) names no page: null, so
 * following it keeps the page that is open.
 */
export function pageOf(hash: string, anchorExists: (id: string) => boolean = () => false): PagePath | null {
  const h = hash.replace(/^#\/?/, '').split(/[?/]/)[0] ?? '';
  const page = PAGES.find((p) => p.path === h)?.path;
  if (page) return page;
  if (!hash.startsWith('#/') && h && anchorExists(decodeURIComponent(hash.slice(1)))) return null;
  return 'score';
}

const inDocument = (id: string) => globalThis.document?.getElementById(id) != null;

export const route = $state({ page: pageOf(globalThis.location?.hash ?? '') ?? 'score' });

export function startRouter(): () => void {
  const on = () => {
    const page = pageOf(location.hash, inDocument);
    if (page) route.page = page;
  };
  addEventListener('hashchange', on);
  return () => removeEventListener('hashchange', on);
}
