/**
 * The reads-under-writes bench's writer, in its own process as an agent's would be (in the
 * bench's process it would share autocannon's event loop and slow the reads it measures):
 * `tsx post-at-rate.ts <url> <rate> <bodies.json>` posts each body of the JSON array to
 * `<url>/api/v1/records` at `rate` a second, prints `answered <n>` as answers arrive; SIGUSR1
 * pauses or resumes the posting (resumed, it goes on at `rate` from then, without catching up); on
 * SIGTERM it stops, waits for every answer and prints `done <json>` (rate while posting, stored,
 * refused, and the refused by status).
 */
import { readFileSync } from "node:fs";

const [url, rateText, file] = process.argv.slice(2);
const rate = Number(rateText);
const bodies = JSON.parse(readFileSync(file!, "utf8")) as string[];

async function post(body: string): Promise<number> {
  try {
    const res = await fetch(`${url}/api/v1/records`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

let t0 = performance.now();
let postedBefore = 0; // posts before the last resume
let postingMs = 0; // time spent posting before the last pause
let paused = false;
const posts: Promise<number>[] = [];
let answered = 0;
process.on("SIGUSR1", () => {
  paused = !paused;
  if (paused) postingMs += performance.now() - t0;
  else [t0, postedBefore] = [performance.now(), posts.length];
});
const timer = setInterval(() => {
  if (paused) return;
  const due = Math.min(bodies.length, postedBefore + Math.floor(((performance.now() - t0) / 1000) * rate));
  while (posts.length < due)
    posts.push(post(bodies[posts.length]!).finally(() => process.stdout.write(`answered ${++answered}\n`)));
}, 5);

process.once("SIGTERM", () => {
  clearInterval(timer);
  const seconds = (postingMs + (paused ? 0 : performance.now() - t0)) / 1000;
  void Promise.all(posts).then((statuses) => {
    const stored = statuses.filter((s) => s === 201).length;
    // What the refused ones were answered (0: no answer, the connection failed).
    const why: Record<number, number> = {};
    for (const s of statuses) if (s !== 201) why[s] = (why[s] ?? 0) + 1;
    const summary = { rate: posts.length / seconds, stored, refused: statuses.length - stored, why };
    process.stdout.write(`done ${JSON.stringify(summary)}\n`, () => process.exit(0));
  });
});
