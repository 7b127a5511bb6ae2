/** `verity metrics`: the metrics with their cards and one worked example each. */
import type { Command } from 'commander';
import { SUPPORTED_METRICS, optionLines, withLimitLine } from '../../core/metrics/index.ts';

export function register(p: Command): void {
  p.command('metrics')
    .description('list the metrics with their cards')
    .action(() => {
      for (const d of SUPPORTED_METRICS) {
        const ex = d.examples[0];
        const card = withLimitLine(d.card);
        const score = ex.expected.score === null ? 'not scored' : `score ${ex.expected.score}`;
        const verdict = ex.expected.decision === null ? '' : ex.expected.decision ? ', correct' : ', incorrect';
        process.stdout.write(
          `${d.name}${d.default ? ' (default)' : ''}${d.variants?.length ? `; variants: ${d.variants.join(', ')}` : ''}\n` +
            `  what: ${card.what}\n  formula: ${card.formula}\n  defaults: ${card.defaults}\n  limits: ${card.limits}\n  cite: ${card.citation}\n` +
            optionLines(d)
              .map((o) => `  option (--metric-option): ${o.name} ${o.says}\n`)
              .join('') +
            `  example: question ${JSON.stringify(ex.item.question)}, gold ${JSON.stringify(ex.item.golds)}, candidate ${JSON.stringify(ex.item.candidate)}` +
            `${ex.given ? ` (${ex.given})` : ''} → ${score}${verdict}\n\n`,
        );
      }
    });
}
