import { inspect } from "node:util";
import { HardhatPluginError } from "hardhat/plugins";
import { AugurError } from "@augur/scorer";
import { toAgentError } from "@augur/agent";

/**
 * Hardhat prints a plugin error as one line (no stack trace) and exits 1: every refusal a person
 * can act on becomes one. The typed error stays on `parent` for programs and tests.
 */
export class TaskRefusal extends HardhatPluginError {
  constructor(error: Error) {
    super("augur", `${error.name}: ${error.message}`, error);
    // HardhatPluginError resets the prototype to its own; restore ours.
    Object.setPrototypeOf(this, TaskRefusal.prototype);
  }

  // Hardhat prints the stack under the message on headless machines (it takes them for CI): a
  // refusal is expected and its message says what to do, so there is nothing more to print.
  [inspect.custom](): string {
    return "";
  }
}

/** Known errors (typed toolkit errors, deploy config/check errors, decoded reverts) → TaskRefusal. */
export function refusal(error: unknown): unknown {
  const typed = toAgentError(error);
  if (typed instanceof AugurError) return new TaskRefusal(typed);
  if (
    typed instanceof Error &&
    ["DeployConfigError", "DeployCheckError", "DeployDriftError", "HandoverError"].includes(typed.name)
  ) {
    return new TaskRefusal(typed);
  }
  return typed;
}

/** Runs a task body, turning refusals into one-line errors. */
export async function guarded<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw refusal(error);
  }
}
