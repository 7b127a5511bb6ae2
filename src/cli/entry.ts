/** The command line's entry point (bundled for the tests; bin/verity.mjs does the same through tsx). */
import { main } from './main.ts';

process.exitCode = await main(process.argv);
