import { expect } from "chai";
import fc from "fast-check";
import { chunksOf, mapBounded } from "./pool";

/** A call that settles when the test says so, so the order of completion is the test's. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}
const tick = () => new Promise((done) => setImmediate(done));

describe("mapBounded", () => {
  it("keeps the items' order whatever order the calls finish in, with never more than the limit in flight", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer(), { maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        async (items, limit, picks) => {
          const pending: Array<{ i: number; done: () => void }> = [];
          let inFlight = 0;
          let most = 0;
          const run = mapBounded(items, limit, (item, i) => {
            inFlight += 1;
            most = Math.max(most, inFlight);
            const d = deferred<number>();
            pending.push({ i, done: () => d.resolve(item * 2) });
            return d.promise.finally(() => (inFlight -= 1));
          });
          let settled = false;
          void run.finally(() => (settled = true));
          // Finish the pending calls in an order drawn by fast-check, until the map is done.
          for (let k = 0; !settled; k++) {
            await tick();
            if (pending.length === 0) continue;
            const [next] = pending.splice(picks[k % picks.length]! % pending.length, 1);
            next!.done();
          }
          expect(await run).to.deep.equal(items.map((x) => x * 2));
          expect(most).to.be.at.most(limit);
          if (items.length > 0) expect(most).to.equal(Math.min(limit, items.length));
        },
      ),
    );
  });

  it("rejects with the first failure and starts no further call after it", async () => {
    const started: number[] = [];
    const failure = new Error("chunk 2 refused");
    const run = mapBounded([0, 1, 2, 3, 4, 5, 6, 7], 2, async (item) => {
      started.push(item);
      await tick();
      if (item === 2) throw failure;
      return item;
    });
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.equal(failure);
    await tick();
    await tick();
    // 2 fails while 3 is in flight: 4 and later never start.
    expect(started).to.deep.equal([0, 1, 2, 3]);
  });

  it("refuses a pool size below one", async () => {
    for (const limit of [0, -1, 1.5, Number.NaN])
      await mapBounded([1], limit, async (x) => x).then(
        () => expect.fail(`limit ${limit} accepted`),
        (e: unknown) => expect(e).to.be.instanceOf(RangeError),
      );
  });
});

describe("chunksOf", () => {
  it("cuts items into runs of at most the size that join back to the items", () => {
    fc.assert(
      fc.property(fc.array(fc.nat()), fc.integer({ min: 1, max: 50 }), (items, size) => {
        const chunks = chunksOf(items, size);
        expect(chunks.flat()).to.deep.equal(items);
        expect(chunks.every((c) => c.length >= 1 && c.length <= size)).to.equal(true);
        expect(chunks.length).to.equal(Math.ceil(items.length / size));
      }),
    );
    expect(chunksOf([1, 2, 3, 4, 5], 2)).to.deep.equal([[1, 2], [3, 4], [5]]);
  });

  it("refuses a chunk size below one", () => {
    expect(() => chunksOf([1], 0)).to.throw(RangeError, "chunk size must be ≥ 1, got 0");
  });
});
