// Type-aware linting of the project's own code (typescript-eslint): floating promises, unsafe `any`,
// and the other mistakes the type checker alone lets through. Formatting is prettier's job; the one
// layout rule here is that no line is longer than prettier's width (prettier cannot wrap strings and
// comments, so a long one has to be split by hand).
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import { readFileSync } from 'node:fs';
import { URL } from 'node:url';
import tseslint from 'typescript-eslint';

const { printWidth } = JSON.parse(readFileSync(new URL('./.prettierrc.json', import.meta.url), 'utf8'));

export default tseslint.config(
  { ignores: ['node_modules/**', '**/dist/**', 'generated/**', 'coverage/**', 'test/fixtures/**', 'test/.tmp*/**', 'bench/.tmp/**'] },
  // The projects under examples/ other than documents/ stand alone: their own package.json and tsconfig, their code
  // compiled against the packed packages and their own generated/ by their tests (test/examples), not from here.
  { ignores: ['examples/*/**', '!examples/documents/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@stylistic': stylistic },
    rules: {
      '@stylistic/max-len': ['error', { code: printWidth, tabWidth: 2 }],
      // Public types default their type parameters to `any` on purpose (the user's filter type is theirs);
      // what matters is that no `any` flows into unchecked code, which the no-unsafe-* rules catch.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // The example page runs in the browser: its own tsconfig adds the DOM types.
  { files: ['examples/documents/page/**/*.ts'], languageOptions: { parserOptions: { projectService: false, project: ['./tsconfig.page.json'] } } },
  { files: ['**/*.mjs', '**/*.js'], ...tseslint.configs.disableTypeChecked },
);
