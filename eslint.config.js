import neostandard from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['node_modules/**', 'data/**', 'coverage/**', 'dist/**', 'test-artifacts/**'] }),
  {
    files: ['**/*.ts'],
    rules: {
      // The DNS and store code uses small numeric helpers whose names read better unprefixed.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }]
    }
  }
]
