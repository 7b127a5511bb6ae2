/**
 * Several reviewers in the app, as `verity agreement` does it (core/review/agreement.ts): label files two or more
 * people filled in, read in the page (small, and never sent anywhere), κ or α with its interval, every answer they
 * judged otherwise, the adjudicator and what unsettled answers count as, and the merged verdicts as a file.
 */
import {
  agreementLines,
  agreementReport,
  mergedJsonl,
  reviewerOfFile,
  verdictsOfText,
  type AgreementReport,
} from '../../core/review/agreement.ts';
import type { Verdict } from '../../core/review/memory.ts';
import { DEFAULTS } from '../../core/defaults.ts';
import { messageOf } from '../../core/errors.ts';
import { saveBlob } from './download.ts';

export class ReviewersPanel {
  /** The files read, and every verdict in them. */
  files = $state.raw<string[]>([]);
  #read: { source: string; verdict: Verdict }[] = [];
  adjudicator = $state('');
  unsettled = $state<'majority' | 'omit'>('omit');
  report = $state.raw<AgreementReport | null>(null);
  lines = $state.raw<string[]>([]);
  error = $state<string | null>(null);

  /** Everyone who gave a verdict: the adjudicator is one of them. */
  people = $state.raw<string[]>([]);

  async read(files: readonly File[]): Promise<void> {
    this.error = null;
    try {
      const read = [];
      for (const f of files) read.push(...verdictsOfText(await f.text(), f.name));
      this.#read = read;
      this.files = files.map((f) => f.name);
      this.people = Object.keys(Object.fromEntries(read.map((r) => [r.verdict.reviewer ?? reviewerOfFile(r.source), 1]))).sort();
      if (!this.people.includes(this.adjudicator)) this.adjudicator = '';
      this.measure();
    } catch (e) {
      this.report = null;
      this.error = messageOf(e);
    }
  }

  /** κ or α again, after the files, the adjudicator or the unsettled choice changed. */
  measure(): void {
    this.error = null;
    try {
      this.report = agreementReport(this.#read, {
        ...(this.adjudicator ? { adjudicator: this.adjudicator } : {}),
        unsettled: this.unsettled,
        resamples: DEFAULTS.bootstrap.resamples,
        seed: DEFAULTS.bootstrap.seed,
        level: DEFAULTS.bootstrap.level,
        files: this.files,
      });
      this.lines = agreementLines(this.report).filter((l) => l !== '' && !l.startsWith('  '));
    } catch (e) {
      this.report = null;
      this.lines = [];
      this.error = messageOf(e);
    }
  }

  /** One verdict per answer, with every reviewer's and how it was settled (`verity review --known` reads it). */
  saveMerged(): void {
    if (this.report) saveBlob(new Blob([mergedJsonl(this.report.merged)], { type: 'application/x-ndjson' }), 'verity.merged.jsonl');
  }
}
