/** Hash routing for the four pages: no library needed, and deep links (`#/learn`) work from a static host. */
export const PAGES = [
  { path: 'score', title: 'Score' },
  { path: 'playground', title: 'Playground' },
  { path: 'learn', title: 'Learn' },
  { path: 'models', title: 'Models' },
] as const;
export type PagePath = (typeof PAGES)[number]['path'];

const current = (): PagePath => {
  const h = globalThis.location?.hash.replace(/^#\/?/, '').split(/[?/]/)[0] ?? '';
  return (PAGES.find((p) => p.path === h)?.path ?? 'score') as PagePath;
};

export const route = $state({ page: current() });

export function startRouter(): () => void {
  const on = () => (route.page = current());
  addEventListener('hashchange', on);
  return () => removeEventListener('hashchange', on);
}
