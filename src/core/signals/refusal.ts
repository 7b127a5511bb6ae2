/**
 * @file Refusals and non-answers ("I don't know", "I cannot answer", "it depends"): never an answer, so the
 * taxonomy class is invalid, never partial.
 */

/** Phrases that, at the start of an answer or as the whole of it, decline to answer. */
const REFUSAL = [
  /\bi (?:do not|don't|dont) know\b/i,
  /\bi(?: am|'m) not (?:sure|certain|aware)\b/i,
  /\bi(?: am|'m)? ?(?:unable|not able) to (?:answer|say|determine|tell|provide|find)\b/i,
  /\bi (?:cannot|can't|can not|could not|couldn't) (?:answer|say|determine|tell|provide|find|help|verify|know)\b/i,
  /\bi (?:have|'ve) no (?:idea|information|way of knowing)\b/i,
  /\bno(?:body| one) (?:knows|can say|is sure)\b/i,
  /^(?:it )?depends\b/i,
  /^it (?:really )?depends\b/i,
  /^(?:unknown|unclear|not sure|no idea|n\/a|none of the above)[.!]?$/i,
  /\b(?:there is|there's) no (?:way to (?:know|tell)|(?:definitive|single|clear) answer)\b/i,
  /\bas an ai\b/i,
  /^i(?:'m|’m| am) sorry,? (?:but )?i (?:couldn[’']t|could not|can[’']t|cannot|don[’']t|do not|was unable to)\b/i,
  /\bi (?:couldn[’']t|could not|was unable to) find (?:any )?(?:information|anything|a record)\b/i,
  /\b(?:this|that|it) (?:is|remains) (?:unknown|a mystery|not known|uncertain)(?:[.!]?$|\s+(?:who|what|when|where|whether|how|which)\b)/i,
  /\bcannot be (?:determined|answered|known)\b/i,
];

/** Any of REFUSAL (all case-insensitive alone): one pass over an answer that declines nothing (most do), then the list in order for the cue. */
const ANY_REFUSAL = new RegExp(REFUSAL.map((re) => `(?:${re.source})`).join('|'), 'i');

/** The refusal cue of an answer with no letter or digit (a description: the answer has no phrase to quote). */
const EMPTY_ANSWER = 'empty answer';

/** The phrase a reason may quote from the answer: the cue, or '' for an answer with no letter or digit. */
export const quotableCue = (r: RefusalSignal): string => (r.cue === EMPTY_ANSWER ? '' : r.cue);

export interface RefusalSignal {
  /** The phrase that declines to answer; EMPTY_ANSWER for an answer with no letter or digit. */
  cue: string;
}

/** The refusal phrase in a candidate, or null. Empty candidates count as non-answers too. */
export function refusal(candidate: string): RefusalSignal | null {
  const s = candidate.trim();
  if (!/[\p{L}\p{N}]/u.test(s)) return { cue: EMPTY_ANSWER };
  if (!ANY_REFUSAL.test(s)) return null;
  for (const re of REFUSAL) {
    const m = re.exec(s);
    if (m) return { cue: m[0] };
  }
  return null;
}
