"use strict";
// Mocha's spec reporter, plus one JSON line of counts appended to $AUGUR_TEST_SUMMARY so that
// scripts/test-all.mjs can sum every runner into the single closing line CI reads. With
// $AUGUR_TEST_TIMES set, also one JSON line per test file with its wall-clock and CPU seconds (hooks
// included; CPU counts the child processes it started and waited for, such as hardhat nodes), the
// per-file figures of docs/benchmarks.md. On a loaded machine CPU seconds are the steadier figure.
const fs = require("node:fs");
const Mocha = require("mocha");

/** CPU seconds of this process and of its exited children (Linux /proc), else of this process alone. */
function cpuSeconds() {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime, stime, cutime, cstime: fields 14-17 of proc(5), in clock ticks (100 a second on Linux).
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  }
}

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const timesFile = process.env.AUGUR_TEST_TIMES;
    if (timesFile) {
      const started = new Map();
      runner.on(Mocha.Runner.constants.EVENT_SUITE_BEGIN, (suite) => {
        if (suite.file && suite.parent?.root) started.set(suite, { wall: Date.now(), cpu: cpuSeconds() });
      });
      runner.on(Mocha.Runner.constants.EVENT_SUITE_END, (suite) => {
        const t0 = started.get(suite);
        if (t0 === undefined) return;
        const seconds = (Date.now() - t0.wall) / 1000;
        const cpu = Math.round((cpuSeconds() - t0.cpu) * 100) / 100;
        const line = {
          step: process.env.AUGUR_TEST_SUITE,
          file: suite.file,
          suite: suite.title,
          seconds,
          cpu,
        };
        fs.appendFileSync(timesFile, JSON.stringify(line) + "\n");
      });
    }
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
