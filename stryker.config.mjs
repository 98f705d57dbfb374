// Mutation testing of the pure packages (issue 24): `npm run test:mutation`, or one file with
// `npm run test:mutation -- --mutate packages/scorer/src/seal.ts`. Not part of `npm test`.
// Survivors that cannot change behaviour are listed, with why, in docs/mutation-equivalents.md.
// MUTATION_REPORT_DIR names the report folder (default reports/mutation, git-ignored).

// Property tests run 100 cases per mutant (1,000 in `npm test`); the child runners inherit this.
process.env.FC_RUNS ??= "100";

// The wire-protocol package may not exist in every checkout; its globs then match nothing.
const pureSources = ["packages/scorer/src/**/*.ts", "packages/records/src/**/*.ts"];
const notMutated = [
  "**/*.test.ts",
  "**/*.bench.ts",
  "**/*.test-util.ts",
  "**/index.ts", // re-exports only
  "**/types.ts", // type declarations only
  "packages/scorer/src/merkle/testing.ts", // reference models the tests compare against
  "packages/scorer/src/augur/fixture.ts",
  "packages/scorer/src/augur/fixture-arb.ts",
  "packages/scorer/src/referee/synthetic-input.ts",
];

const reportDir = process.env.MUTATION_REPORT_DIR ?? "reports/mutation";
// MUTATION_SPEC (comma-separated globs) runs only these test files: a file's own tests score its
// mutants in minutes where the whole spec list (the season tests cover almost every file) takes an hour.
const spec = process.env.MUTATION_SPEC?.split(",") ?? [
  "packages/scorer/src/**/*.test.ts",
  "packages/records/src/**/*.test.ts",
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "mocha",
  coverageAnalysis: "perTest",
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  mutate: [...pureSources, ...notMutated.map((glob) => `!${glob}`)],
  // The sandbox holds only what these tests read (node_modules is linked, not copied).
  ignorePatterns: [
    "/*",
    "!/package.json",
    "!/tsconfig.json",
    "!/scripts",
    "/scripts/*",
    "!/scripts/fc-setup.cjs",
    "!/packages",
    "/packages/*",
    "!/packages/scorer",
    "!/packages/records",
  ],
  testRunnerNodeArgs: ["--require", "tsx/cjs"],
  mochaOptions: {
    "no-config": true,
    "no-package": true,
    spec,
    require: ["scripts/fc-setup.cjs"],
  },
  timeoutMS: 20000,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `${reportDir}/index.html` },
  jsonReporter: { fileName: `${reportDir}/mutation.json` },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  thresholds: { high: 95, low: 90, break: null },
};
