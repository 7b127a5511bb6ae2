/** What a label cell says: correct / incorrect in the words files use, or one of the eight CAP classes. */
import { CAP_CLASSES, type CapClass, type Label } from '../types.ts';
import { fail, ok, type Result } from '../errors.ts';

// c / i: Inspect's CORRECT and INCORRECT score values.
const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'correct', 't', 'c', 'right', 'pass', 'accept', 'accepted']);
// not_attempted: SimpleQA's grade for an answer that gives none (not correct).
const FALSE_WORDS = new Set([
  'false',
  '0',
  'no',
  'n',
  'incorrect',
  'f',
  'wrong',
  'i',
  'fail',
  'reject',
  'rejected',
  'not_attempted',
  'not attempted',
]);
/** "1.0", "0.0", "1.00": a pandas export of a label column with gaps writes floats. */
const ONE_OR_ZERO = /^[+-]?(?:1|0)(?:\.0+)?$/;

/** Parses a label value: undefined for an empty one, or why an unknown one is not a label. */
export function parseLabel(v: unknown): Result<Label | undefined> {
  if (v === null || v === undefined) return ok(undefined);
  if (typeof v === 'boolean') return ok({ kind: 'binary', correct: v });
  if (typeof v === 'number') return v === 1 || v === 0 ? ok({ kind: 'binary', correct: v === 1 }) : fail(`label ${v} is not 1/0`);
  // String([1]) is "1": a list or an object must not pass for a label.
  if (typeof v === 'object')
    return fail(`label ${JSON.stringify(v)} is a JSON ${Array.isArray(v) ? 'array' : 'object'}, not true/false, 1/0 or a class name`);
  const s = String(v).trim().toLowerCase();
  if (s === '' || s === 'nan' || s === 'null' || s === 'none') return ok(undefined);
  if (ONE_OR_ZERO.test(s)) return ok({ kind: 'binary', correct: Number(s) === 1 });
  if (TRUE_WORDS.has(s)) return ok({ kind: 'binary', correct: true });
  if (FALSE_WORDS.has(s)) return ok({ kind: 'binary', correct: false });
  const cls = s.replace(/[_\s]+/g, '-') as CapClass;
  if ((CAP_CLASSES as readonly string[]).includes(cls)) return ok({ kind: 'taxonomy', cls });
  return fail(
    `label "${String(v)}" is not one of true/false, 1/0, yes/no, correct/incorrect or the eight class names (${CAP_CLASSES.join(', ')})`,
  );
}
