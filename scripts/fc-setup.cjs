"use strict";
// One fast-check configuration for every property test (contracts and packages): a fixed seed,
// so a failure is reproducible from the seed and path fast-check prints with it, and the run
// count from FC_RUNS (1,000 in `npm test`, 10,000 in `npm run test:deep`).
const fc = require("fast-check");

const numRuns = Number(process.env.FC_RUNS ?? 1000);
const seed = Number(process.env.FC_SEED ?? 20261130);
fc.configureGlobal({ numRuns, seed, endOnFailure: true });
