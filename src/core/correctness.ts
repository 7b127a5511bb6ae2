/** What a human label means for correctness: a class label reduced to correct / incorrect. */
import type { CapClass, Label } from './types.ts';

/** Classes counted as correct when class labels are reduced to correct / incorrect. */
export const CORRECT_CLASSES: ReadonlySet<CapClass> = new Set(['exact', 'equivalent', 'alternative-correct', 'overinclusive-valid']);

export const labelIsCorrect = (l: Label): boolean => (l.kind === 'binary' ? l.correct : CORRECT_CLASSES.has(l.cls));
