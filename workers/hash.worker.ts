/** Hashes the input files the scoring worker hands it (src/runtime/hash-thread.ts), beside that worker's parse. */
import { serveHash } from '../src/runtime/hash-thread.ts';

serveHash(self as unknown as Parameters<typeof serveHash>[0]);
