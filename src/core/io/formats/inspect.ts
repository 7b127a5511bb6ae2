/**
 * Inspect AI eval logs (`inspect eval … --log-format json`): one JSON object whose `samples[]` hold the
 * `input` (a string or chat messages), the `target` (a string or a list), the model `output` and the `scores`
 * of each scorer. Each sample becomes one row: id, epoch, question, gold (the target), candidate (output.completion, else
 * the text of the first choice's message), model (from `eval.model`, so several logs compare as systems),
 * `score.<scorer>` (the scorer's value: C / I / P / N or a number) and `metadata.<key>` for scalar metadata.
 * With several epochs the id is `<id>#<epoch>`, so each epoch is its own question row.
 */
import { VerityError } from '../../types.ts';
import { isPlainObject, type ParsedTable } from '../parse.ts';

type Obj = Record<string, unknown>;

/** Whether a parsed JSON value is an Inspect eval log. */
export function isInspectLog(v: unknown): v is Obj {
  return (
    isPlainObject(v) &&
    isPlainObject(v.eval) &&
    ('samples' in v || 'results' in v || 'status' in v) &&
    typeof (v.eval as Obj).task === 'string'
  );
}

/** Text of message content: a string, or a list of content parts of which the text ones count. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .filter((p): p is Obj => isPlainObject(p) && p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text as string)
      .join('\n');
  return '';
}

/** The question: the input string, or the text of the user messages of a chat input. */
function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (Array.isArray(input))
    return input
      .filter((m): m is Obj => isPlainObject(m) && m.role === 'user')
      .map((m) => contentText(m.content))
      .join('\n');
  return '';
}

function completion(output: unknown): string | null {
  if (!isPlainObject(output)) return null;
  if (typeof output.completion === 'string') return output.completion;
  const first = Array.isArray(output.choices) ? output.choices[0] : undefined;
  if (isPlainObject(first) && isPlainObject(first.message)) return contentText(first.message.content);
  return null;
}

const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

export function inspectToTable(log: Obj): ParsedTable {
  const ev = log.eval as Obj;
  if (!Array.isArray(log.samples) || log.samples.length === 0)
    throw new VerityError(
      `the Inspect log of task "${String(ev.task)}" has no samples (was it written with --no-log-samples, or did the run fail? status: ${String(log.status ?? 'unknown')})`,
      'input',
    );
  const samples = log.samples as unknown[];
  const epochs = samples.some((s) => isPlainObject(s) && typeof s.epoch === 'number' && s.epoch > 1);
  const columns = new Set(['id', 'epoch', 'question', 'gold', 'candidate', 'model']);
  const issues: ParsedTable['issues'] = [];
  const records: ParsedTable['records'] = [];
  samples.forEach((s, i) => {
    const row = i + 1;
    if (!isPlainObject(s)) {
      issues.push({ row, severity: 'error', message: `row ${row}: sample ${row} is not an object; skipped` });
      return;
    }
    const data: Obj = {
      id: epochs ? `${String(s.id)}#${String(s.epoch)}` : s.id,
      epoch: s.epoch,
      question: inputText(s.input),
      gold: s.target,
      candidate: completion(s.output),
      model: typeof ev.model === 'string' ? ev.model : undefined,
    };
    if (isPlainObject(s.scores))
      for (const [name, score] of Object.entries(s.scores)) {
        const value = isPlainObject(score) ? score.value : undefined;
        data[`score.${name}`] = scalar(value) ? value : JSON.stringify(value);
        columns.add(`score.${name}`);
      }
    if (isPlainObject(s.metadata))
      for (const [k, v] of Object.entries(s.metadata))
        if (scalar(v)) {
          data[`metadata.${k}`] = v;
          columns.add(`metadata.${k}`);
        }
    records.push({ row, data });
  });
  return { format: 'json', columns: [...columns], records, issues };
}
