"use strict";
// Mocha's spec reporter, plus one JSON line of counts appended to $AUGUR_TEST_SUMMARY so that
// scripts/test-all.mjs can sum every runner into the single closing line CI reads.
const fs = require("node:fs");
const Mocha = require("mocha");

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.AUGUR_TEST_SUMMARY;
      if (!file) return;
      const { passes, failures, pending } = runner.stats ?? this.stats;
      const suite = process.env.AUGUR_TEST_SUITE ?? "mocha";
      fs.appendFileSync(
        file,
        JSON.stringify({ suite, passed: passes, failed: failures, skipped: pending }) + "\n",
      );
    });
  }
}

module.exports = SummaryReporter;
