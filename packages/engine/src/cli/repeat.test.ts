import { EventEmitter } from "node:events";
import { expect } from "chai";
import { repeatUntilSignalled, type SignalSource } from "./repeat";

/** A stand-in for the process: signals are emitted on it, nothing is sent to the test runner. */
function fakeProcess(): EventEmitter & SignalSource {
  return new EventEmitter();
}

describe("repeatUntilSignalled (the cycle and keeper loops)", () => {
  it("runs the task, waits, and runs it again until the abort signal fires", async () => {
    const controller = new AbortController();
    let runs = 0;
    const total = await repeatUntilSignalled(
      async () => {
        runs += 1;
        if (runs === 3) controller.abort();
      },
      1,
      { signal: controller.signal, signals: fakeProcess() },
    );
    expect(runs).to.equal(3);
    expect(total).to.equal(3);
  });

  it("asks for the delay after every run (the cycle waits until the next hour)", async () => {
    const controller = new AbortController();
    const asked: number[] = [];
    let runs = 0;
    await repeatUntilSignalled(
      async () => {
        runs += 1;
        if (runs === 3) controller.abort();
      },
      () => {
        asked.push(runs);
        return 1;
      },
      { signal: controller.signal, signals: fakeProcess() },
    );
    expect(asked).to.deep.equal([1, 2]);
  });

  for (const name of ["SIGINT", "SIGTERM"] as const) {
    it(`${name} during a long wait ends the wait at once and removes its listeners`, async () => {
      const signals = fakeProcess();
      const started = Date.now();
      const loop = repeatUntilSignalled(async () => undefined, 3_600_000, { signals });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(signals.listenerCount(name)).to.equal(1);
      signals.emit(name);
      expect(await loop).to.equal(1);
      expect(Date.now() - started).to.be.below(2_000);
      expect(signals.listenerCount("SIGINT") + signals.listenerCount("SIGTERM")).to.equal(0);
    });
  }

  it("lets a run that is under way finish before stopping", async () => {
    const signals = fakeProcess();
    const events: string[] = [];
    const runs = await repeatUntilSignalled(
      async () => {
        events.push("start");
        signals.emit("SIGTERM");
        await new Promise((resolve) => setTimeout(resolve, 10));
        events.push("end");
      },
      3_600_000,
      { signals },
    );
    expect(runs).to.equal(1);
    expect(events).to.deep.equal(["start", "end"]);
  });

  it("does not run at all when the abort signal has already fired", async () => {
    let runs = 0;
    const total = await repeatUntilSignalled(
      async () => {
        runs += 1;
      },
      1,
      { signal: AbortSignal.abort(), signals: fakeProcess() },
    );
    expect([runs, total]).to.deep.equal([0, 0]);
  });

  it("stops on a task's error, propagates it and removes the listeners", async () => {
    const signals = fakeProcess();
    let caught: unknown;
    try {
      await repeatUntilSignalled(
        async () => {
          throw new Error("rpc down");
        },
        1,
        { signals },
      );
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).to.equal("rpc down");
    expect(signals.listenerCount("SIGINT") + signals.listenerCount("SIGTERM")).to.equal(0);
  });
});
