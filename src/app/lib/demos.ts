/** The demo files that ship with the app (public/demo/), offered on the Score page's first screen. */
export interface Demo {
  file: string;
  label: string;
  what: string;
  testid: string;
}

export const DEMOS: readonly Demo[] = [
  {
    file: 'demo-set.jsonl',
    label: 'Try it with the demo set',
    what: '208 answers to 26 questions, one for each class of answer, each with its human label',
    testid: 'try-demo',
  },
  {
    file: 'compare-demo.jsonl',
    label: 'Try a comparison',
    what: 'three made-up systems answering the same 26 questions, ranked and compared',
    testid: 'try-compare',
  },
];

/** Where a demo file is served from (the build may live under a sub-path). */
export const demoUrl = (d: Demo): string => `${import.meta.env.BASE_URL}demo/${d.file}`;
