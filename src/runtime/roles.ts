/**
 * Which models a run needs: the roles that serve the capabilities its metrics' descriptors declare
 * (core/metrics capabilitiesOf). The CLI and the page ask it here, before any metric is built.
 */
import { capabilitiesOf } from '../core/metrics/index.ts';
import { CAPABILITY_ROLE, ROLES, type Role } from './registry.ts';

export interface RoleOptions {
  /**
   * Write statements with a seq2seq model. Off by default: without a writer the core uses its rule writer,
   * which is instant and needs no download (the CLI does the same unless --statement-model is given).
   */
  modelWriter?: boolean;
}

/** The roles whose models these metrics (names or variants) need, in role order (no duplicates). */
export function rolesFor(metrics: readonly string[], opts: RoleOptions = {}): Role[] {
  const needed = new Set(capabilitiesOf(metrics).flatMap((c) => (c !== 'writer' || opts.modelWriter ? [CAPABILITY_ROLE[c]] : [])));
  return ROLES.filter((r) => needed.has(r));
}
