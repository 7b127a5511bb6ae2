/** The layer rule (eslint.config.js) holds for components too: a planted import across layers fails lint. */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });
const rules = async (code: string, filePath: string) => (await eslint.lintText(code, { filePath }))[0]!.messages.map((m) => m.ruleId);

describe('the layer rule', () => {
  it('fails a .svelte component that imports the CLI, and passes one that imports the session', async () => {
    const from = (path: string) => `<script lang="ts">\n  import { x } from '${path}';\n  console.log(x);\n</script>\n`;
    expect(await rules(from('../../cli/say.ts'), 'src/app/components/Planted.svelte')).toContain('import-x/no-restricted-paths');
    expect(await rules(from('../../session/api.ts'), 'src/app/components/Planted.svelte')).not.toContain('import-x/no-restricted-paths');
  }, 120_000);

  it('fails a core module that imports the session', async () => {
    expect(await rules(`import { x } from '../session/api.ts';\nexport const y = x;\n`, 'src/core/planted.ts')).toContain(
      'import-x/no-restricted-paths',
    );
  }, 120_000);
});
