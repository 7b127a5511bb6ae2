/**
 * Two systems' answers in the wide layout, without labels, for the review tests (session and e2e): system a
 * answers with the gold or a long sentence holding it (right, but lexical metrics under-credit it), system b
 * with the gold or something unrelated.
 */
export const reviewAnswers = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `q${i}`,
    question: `What is thing number ${i}?`,
    golden_answer: `answer ${i}`,
    answer_a: i % 3 === 0 ? `answer ${i}` : `I am fairly sure that it is answer ${i}, as far as I remember it.`,
    answer_b: i % 2 === 0 ? `answer ${i}` : 'something else entirely',
  }));
