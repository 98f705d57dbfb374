/**
 * A verify worker's thread (cli/verify-agents.ts starts it): checks the agents of the one share
 * it is given, one after another, sending each agent's verdict as a note when it is done.
 */
import { parentPort } from "node:worker_threads";
import { threadShared, verifyAgentOfMany } from "./verify-agent";
import type { VerifyShare } from "./verify-agents";

const port = parentPort!;
port.once("message", async (text: string) => {
  const { plan, agents } = JSON.parse(text) as VerifyShare;
  const shared = threadShared();
  for (const agent of agents) port.postMessage({ note: await verifyAgentOfMany(plan, agent, {}, shared) });
  port.postMessage({ done: true });
});
