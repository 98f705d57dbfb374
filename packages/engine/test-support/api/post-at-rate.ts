/**
 * The reads-under-writes bench's writer, in its own process as an agent's would be (in the
 * bench's process it would share autocannon's event loop and slow the reads it measures):
 * `tsx post-at-rate.ts <url> <rate> <bodies.json>` posts each body of the JSON array to
 * `<url>/api/v1/records` at `rate` a second, prints `answered <n>` as answers arrive, and on
 * SIGTERM stops posting, waits for every answer and prints `done <json>` (rate, stored, refused).
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

const t0 = performance.now();
const posts: Promise<number>[] = [];
let answered = 0;
const timer = setInterval(() => {
  const due = Math.min(bodies.length, Math.floor(((performance.now() - t0) / 1000) * rate));
  while (posts.length < due)
    posts.push(post(bodies[posts.length]!).finally(() => process.stdout.write(`answered ${++answered}\n`)));
}, 5);

process.once("SIGTERM", () => {
  clearInterval(timer);
  const seconds = (performance.now() - t0) / 1000;
  void Promise.all(posts).then((statuses) => {
    const stored = statuses.filter((s) => s === 201).length;
    const summary = { rate: posts.length / seconds, stored, refused: statuses.length - stored };
    process.stdout.write(`done ${JSON.stringify(summary)}\n`, () => process.exit(0));
  });
});
