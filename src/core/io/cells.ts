/**
 * Cell values as the fields need them: text, lists of golds (JSON, Python and NumPy lists, answer objects, a
 * separator), provided NLI and statements, and the text of chat messages and model API responses.
 */
import { VerityError, type ProvidedNli } from '../types.ts';
import type { NliDistribution } from '../capabilities.ts';
import { isPlainObject } from './parse.ts';
import { fail, messageOf, ok, type Result } from '../errors.ts';

/** A value as text (objects as JSON); throws (an exception: the row is skipped) for one nested too deeply to write out. */
export function toText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  try {
    return JSON.stringify(v);
  } catch (e) {
    throw new VerityError(`a value cannot be turned into text (${messageOf(e)})`, 'input', 'too-nested');
  }
}

const PY_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };

/**
 * The strings of a Python list or NumPy array of strings as pandas writes them into a CSV cell: `['Paris', "Ol'
 * Man"]` (repr) or `['Paris' 'paris']` (a NumPy array, no commas). Null for anything else (numbers, nesting, a
 * bracketed plain string), which is then read as it is.
 */
export function pythonStringList(t: string): string[] | null {
  const out: string[] = [];
  let i = 1;
  const end = t.length - 1;
  for (;;) {
    while (i < end && /[\s,]/.test(t[i]!)) i++;
    if (i >= end) return out.length ? out : null;
    const q = t[i];
    if (q !== "'" && q !== '"') return null;
    let s = '';
    for (i++; ; i++) {
      if (i >= end) return null;
      const c = t[i]!;
      if (c === q) break;
      if (c !== '\\') {
        s += c;
        continue;
      }
      const e = t[++i]!;
      const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hex) {
        const code = Number.parseInt(t.slice(i + 1, i + 1 + hex), 16);
        if (!/^[0-9a-f]+$/i.test(t.slice(i + 1, i + 1 + hex)) || code > 0x10ffff) return null;
        s += String.fromCodePoint(code);
        i += hex;
      } else s += PY_ESCAPES[e] ?? `\\${e}`;
    }
    out.push(s);
    i++;
    // Items are separated by a comma or (NumPy) whitespace.
    if (i < end && !/[\s,]/.test(t[i]!)) return null;
  }
}

/** Keys under which datasets keep an answer object's strings: TriviaQA's aliases, SQuAD's text, a value. */
const ANSWER_KEYS = ['aliases', 'text', 'texts', 'answers', 'answer', 'value'];

/**
 * The answer strings of an answer object as Hugging Face datasets hold them (TriviaQA `{aliases, value, …}`,
 * SQuAD `{text: [...], answer_start: [...]}`), without repeats; null for an object that holds none.
 */
export function answerObjectStrings(o: Record<string, unknown>): string[] | null {
  for (const k of ANSWER_KEYS) {
    const v = o[k];
    const list =
      typeof v === 'string' ? [v] : Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
    if (list) return [...new Set(list)];
  }
  return null;
}

/**
 * A string list from an array, a JSON-array string, a Python / NumPy list of strings, an answer object (or its
 * JSON), or a string split by `sep`.
 */
export function toList(v: unknown, sep?: string): string[] {
  if (Array.isArray(v))
    // SQuAD v1 style: a list of answer objects ({text, answer_start}).
    return v
      .filter((x) => x !== null && x !== undefined)
      .flatMap((x) => (isPlainObject(x) ? (answerObjectStrings(x) ?? [toText(x)]) : [toText(x)]));
  if (isPlainObject(v)) {
    const answers = answerObjectStrings(v);
    if (answers) return answers;
  }
  if (typeof v === 'string') {
    const t = v.trim();
    if (t.startsWith('{') && t.endsWith('}')) {
      try {
        const o: unknown = JSON.parse(t);
        const answers = isPlainObject(o) ? answerObjectStrings(o) : null;
        if (answers) return answers;
      } catch {
        /* a plain string in braces */
      }
    }
    if (t.startsWith('[') && t.endsWith(']')) {
      try {
        const arr: unknown = JSON.parse(t);
        // Read as the array itself is (answer objects included).
        if (Array.isArray(arr)) return toList(arr);
      } catch {
        const py = pythonStringList(t);
        if (py) return py;
        /* else a plain string that happens to be bracketed */
      }
    }
    return sep ? v.split(sep) : [v];
  }
  if (v === null || v === undefined) return [];
  return [toText(v)];
}

const jsonValue = (v: unknown): Result<unknown> => {
  if (typeof v !== 'string') return ok(v);
  try {
    return ok(JSON.parse(v));
  } catch {
    return fail('is not valid JSON');
  }
};

function distribution(v: unknown, where: string): Result<NliDistribution> {
  if (!Array.isArray(v) || v.length !== 3) return fail(`${where} must be three numbers [entailment, neutral, contradiction]`);
  if (!v.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0))
    return fail(`${where} must hold numbers ≥ 0, got ${JSON.stringify(v)}`);
  const sum = (v[0] as number) + (v[1] as number) + (v[2] as number);
  if (Math.abs(sum - 1) > 1e-3) return fail(`${where} sums to ${sum.toFixed(4)}, not 1 (±0.001)`);
  return ok({ entailment: v[0] as number, neutral: v[1] as number, contradiction: v[2] as number });
}

/**
 * Validates NLI probabilities supplied with a row: one entry per gold, in order, each
 * {"gold_to_candidate": [ent, neu, con], "candidate_to_gold": [ent, neu, con]}.
 */
export function parseProvidedNli(raw: unknown, golds: number): Result<ProvidedNli[]> {
  const v = jsonValue(raw);
  if (!v.ok) return v;
  const list = Array.isArray(v.value) ? v.value : [v.value];
  if (list.length !== golds) return fail(`has ${list.length} entries but the row has ${golds} gold answers (one entry per gold, in order)`);
  const out: ProvidedNli[] = [];
  for (const [i, e] of list.entries()) {
    if (typeof e !== 'object' || e === null) return fail(`entry ${i + 1} must be an object with gold_to_candidate and candidate_to_gold`);
    const o = e as Record<string, unknown>;
    const g = distribution(o.gold_to_candidate, `entry ${i + 1}: gold_to_candidate`);
    if (!g.ok) return g;
    const c = distribution(o.candidate_to_gold, `entry ${i + 1}: candidate_to_gold`);
    if (!c.ok) return c;
    out.push({ goldToCandidate: g.value, candidateToGold: c.value });
  }
  return ok(out);
}

/** Validates statements supplied with a row: {"gold": [one per gold], "candidate": "…"}. */
export function parseStatements(raw: unknown, golds: number): Result<{ gold: string[]; candidate: string }> {
  const parsed = jsonValue(raw);
  if (!parsed.ok) return parsed;
  const v = parsed.value as Record<string, unknown> | null;
  if (typeof v !== 'object' || v === null || !Array.isArray(v.gold) || typeof v.candidate !== 'string')
    return fail('must be {"gold": ["…", …], "candidate": "…"}');
  if (v.gold.length !== golds || !v.gold.every((g) => typeof g === 'string'))
    return fail(`needs one gold statement per gold answer (${golds})`);
  return ok({ gold: v.gold as string[], candidate: v.candidate });
}

/** The first response of an lm-eval `filtered_resps` / `resps` cell (a list, or a list of lists). */
export const firstResponse = (v: unknown): unknown => {
  let x = v;
  while (Array.isArray(x)) x = x[0];
  return x;
};

/** The text of one chat message or content part: `{role, content}`, `{type: 'text', text}`, or a list of parts. */
function messageText(v: unknown, depth = 0): string | null {
  if (typeof v === 'string') return v;
  if (depth > 8) return null;
  if (Array.isArray(v)) {
    const parts = v.map((p) => messageText(p, depth + 1)).filter((t): t is string => t !== null);
    return parts.length && parts.length === v.length ? parts.join('') : null;
  }
  if (!isPlainObject(v)) return null;
  if (v.content !== undefined) return messageText(v.content, depth + 1);
  if (typeof v.text === 'string') return v.text;
  if (v.message !== undefined) return messageText(v.message, depth + 1);
  return null;
}

/**
 * The answer in a candidate cell that holds what a model API returned rather than text: a chat message
 * (`{role, content}`), a list of messages (the last assistant one), an OpenAI-style response (`choices[0]`), an
 * Anthropic-style content list, `{text}`, or a one-item list. Anything else is returned as it is (a cell nested
 * too deeply is then refused by toText, as before). `role: 'user'` reads a prompt the same way (OpenAI evals'
 * `input`: the last user message).
 */
export function answerText(v: unknown, role: 'assistant' | 'user' = 'assistant'): unknown {
  let x = v;
  for (let i = 0; i < 8 && Array.isArray(x) && x.length === 1; i++) x = x[0];
  if (isPlainObject(x) && Array.isArray(x.choices) && x.choices.length > 0) x = x.choices[0];
  if (typeof x === 'string') return x;
  if (Array.isArray(x)) {
    const said = x.filter((m) => isPlainObject(m) && typeof m.role === 'string');
    if (said.length === 0 || said.length !== x.length) return v;
    return messageText([...said].reverse().find((m) => m.role === role) ?? said.at(-1)) ?? v;
  }
  return isPlainObject(x) ? (messageText(x) ?? v) : v;
}
