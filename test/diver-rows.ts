/**
 * Rows whose system names hold the dataset (diver/<dataset>/<model>), as DIVER's harness names them: two datasets
 * (nq, tq) × two models (gpt4, llama) × four questions. gpt4 is labelled right everywhere; llama is right on
 * 1 of 4 nq questions and 2 of 4 tq questions. The CLI test and the app's e2e test read the same rows.
 */
export const diverRows = () =>
  ['nq', 'tq'].flatMap((d, j) =>
    ['gpt4', 'llama'].flatMap((m) =>
      [0, 1, 2, 3].map((k) => ({
        id: `${d}-${k}`,
        source: `diver/${d}/${m}`,
        question: `${d} ${k}?`,
        gold: 'x',
        candidate: 'x',
        label: m === 'gpt4' || k <= j,
      })),
    ),
  );
