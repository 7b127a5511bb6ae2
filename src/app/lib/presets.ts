/**
 * The Playground's examples, one per correctness class (also checked by the taxonomy tests: each lands in its class with
 * no model, except alternative-correct, whose answer the golds do not list, so no text metric can credit it).
 */
import type { CapClass } from '../../core/types.ts';

export interface Preset {
  cls: CapClass;
  question: string;
  golds: string[];
  candidate: string;
  choices: string[];
  /** What to look at in the results. */
  note: string;
}

/** One clear example per class; each note points at the lesson the example teaches. */
export const PRESETS: readonly Preset[] = [
  {
    cls: 'exact',
    question: 'What is the capital of France?',
    golds: ['Paris'],
    candidate: 'Paris',
    choices: ['Paris', 'Lyon', 'Marseille'],
    note: 'Full marks almost everywhere, but BLEU is about 0: a one-word answer has no 2-, 3- or 4-word sequences to match, and METEOR’s fragmentation penalty halves a one-word match.',
  },
  {
    cls: 'equivalent',
    question: 'How many legs does a spider have?',
    golds: ['8'],
    candidate: 'eight',
    choices: ['6', '8', '10'],
    note: 'The same number in words: exact_match and token_f1 give 0, while lexical_match and PEDANTS read “eight” as 8.',
  },
  {
    cls: 'alternative-correct',
    question: 'Name a country that borders Spain.',
    golds: ['France', 'Portugal'],
    candidate: 'Andorra',
    choices: ['Italy', 'Germany', 'Andorra'],
    note: 'Andorra borders Spain too, but the golds do not list it: every metric here scores it as wrong (taxonomy_text says invalid), because each compares the answer with the golds and none knows geography. Only a person, or a fuller gold list, can credit it: list every accepted answer, one per line, and review what the metrics reject.',
  },
  {
    cls: 'overinclusive-valid',
    question: 'Who wrote Hamlet?',
    golds: ['William Shakespeare'],
    candidate: 'William Shakespeare, the English playwright who also wrote Macbeth',
    choices: ['William Shakespeare', 'Christopher Marlowe', 'Ben Jonson'],
    note: 'The extra words are true, yet exact_match gives 0 and token_f1 and ROUGE-L drop; lexical_match finds the gold inside the answer.',
  },
  {
    cls: 'partial',
    question: 'When did the Titanic sink?',
    golds: ['April 15, 1912'],
    candidate: '1912',
    choices: ['April 15, 1912', 'April 14, 1913', 'May 7, 1915'],
    note: 'Right but less specific than the gold: token_f1 gives half credit, and lexical_match gives 0 because the whole gold is not in the answer.',
  },
  {
    cls: 'overinclusive-invalid',
    question: 'At what temperature does water boil at sea level?',
    golds: ['100 °C'],
    candidate: '100 °C, which is about 100 °F',
    choices: ['100 °C', '90 °C', '110 °C'],
    note: 'lexical_match accepts it because the gold appears, but the added conversion is false (100 °C is 212 °F): taxonomy_text converts the units and finds two different temperatures. A false claim it cannot measure (“Canberra, the largest city in Australia”) needs the model taxonomy’s NLI check of each extra clause.',
  },
  {
    cls: 'invalid',
    question: 'Who painted the Mona Lisa?',
    golds: ['Leonardo da Vinci'],
    candidate: 'Leonardo DiCaprio',
    choices: ['Leonardo da Vinci', 'Michelangelo', 'Raphael'],
    note: 'A shared first name earns token_f1 and ROUGE-L 0.4, and PEDANTS is unsure (P ≈ 0.4); taxonomy_text sees a third of the gold’s words and something else.',
  },
  {
    cls: 'contradictory',
    question: 'Where is the Eiffel Tower?',
    golds: ['The Eiffel Tower is in Paris'],
    candidate: 'The Eiffel Tower is not in Paris',
    choices: ['The Eiffel Tower is in London', 'The Eiffel Tower is in Rome'],
    note: 'BLEU scores the contradiction high because the words overlap (token_f1, ROUGE-L and METEOR even more); the negation of the clause that carries the gold makes taxonomy_text call it contradictory and PEDANTS reject it, with no download, and CAP’s NLI sees it too.',
  },
];
