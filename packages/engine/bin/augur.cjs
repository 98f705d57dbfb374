#!/usr/bin/env node
"use strict";
// The `augur` command runs the TypeScript sources directly (tsx), so `npm ci` is the whole build.
require("tsx/cjs");
require("../src/cli/main.ts")
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
