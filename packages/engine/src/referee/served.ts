import {
  AugurError,
  canonicalJson,
  parseRefereeInput,
  refereeAgent,
  type RefereeAgentResult,
  type RefereeDetailJson,
  refereeDetailJson,
} from "@augur/scorer";
import type { Kysely } from "kysely";
import {
  latestRefereeBoardHead,
  type RefereeBoardHead,
  refereeBoardText,
} from "../store/queries/referee-boards";
import type { Database } from "../store/schema";
import type { RefereeBoardBody, RefereeCohortJson } from "./board";
import { histogramOf } from "./histogram";
import { type CloseWindow, storedInput } from "./input";

/**
 * `GET /api/v1/referee/:epoch/agents/:id`: the detail object of `augur referee detail --json
 * --monkeys` (every monkey's Σr, in monkey order), plus the counts and the histogram the site draws.
 */
export type RefereeAgentDetail = RefereeDetailJson &
  Omit<RefereeCohortJson, "agent"> & {
    readonly pending_calls: number;
    readonly monkeys: readonly number[];
  };

/** The latest stored board of an epoch: its row (seal, leaf, anchor) and its parsed sealed body. */
export interface ServedBoard {
  readonly head: RefereeBoardHead;
  readonly body: RefereeBoardBody;
}

/**
 * The one agent's recomputed result disagrees with the sealed board it is served with: the
 * mapping from calls or the referee changed since the board was sealed. Refused (a 500), never
 * served as if it were the board's.
 */
export class RefereeBoardMismatchError extends AugurError {
  override readonly name = "RefereeBoardMismatchError";
  constructor(epoch: string, agent: string, boardSeal: string) {
    super(
      "REFEREE_BOARD_MISMATCH",
      `agent ${agent} of epoch ${epoch} recomputes differently from board ${boardSeal}`,
      { epoch, agent, boardSeal },
    );
  }
}

function windowOf(body: RefereeBoardBody): CloseWindow {
  return { from: body.inputs.closesFrom, to: body.inputs.closesTo };
}

/**
 * Serves the referee from the boards the hourly cycle sealed: no request runs the whole-season
 * referee. A board is immutable (append-only, named by its seal), so its parsed body and its
 * rebuilt input file are kept per seal; a request only asks the store which board is newest.
 */
export class RefereeBoards {
  private readonly bodies = new Map<string, Promise<RefereeBoardBody>>();
  private readonly inputs = new Map<string, Promise<string>>();

  /**
   * @param maxBodies boards whose parsed body is kept (one per epoch in use)
   * @param maxInputs input files kept as JSON text (they grow with the season: a few)
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxBodies = 16,
    private readonly maxInputs = 2,
  ) {}

  /** The epoch's newest board, or undefined before the cycle sealed one. */
  async latest(epoch: string): Promise<ServedBoard | undefined> {
    const head = await latestRefereeBoardHead(this.db, epoch);
    if (!head) return undefined;
    const body = await remember(this.bodies, this.maxBodies, head.seal, async () => {
      const text = await refereeBoardText(this.db, head.seal);
      return JSON.parse(text!) as RefereeBoardBody;
    });
    return { head, body };
  }

  /**
   * The board's input file as JSON text, rebuilt from the rows below the board's log size over
   * its window (append-only rows: the same file every time; its seal is the board's `inputSeal`).
   */
  async inputText(board: ServedBoard): Promise<string> {
    return remember(this.inputs, this.maxInputs, board.head.seal, async () => {
      const { body, head } = board;
      const { input } = await storedInput(this.db, body.epoch, head.log_size, windowOf(body));
      return JSON.stringify(input);
    });
  }

  /**
   * One agent's detail on the board: the stored numbers, and its 2,048 monkeys recomputed from
   * its own calls (one agent: milliseconds). Undefined when the board does not list the agent.
   */
  async agentDetail(board: ServedBoard, agent: string): Promise<RefereeAgentDetail | undefined> {
    const { body } = board;
    const entry = body.leaderboard.agents.find((a) => a.agent === agent);
    const cohort = body.cohorts.find((c) => c.agent === agent);
    if (!entry || !cohort) return undefined;
    const { input } = await storedInput(this.db, body.epoch, board.head.log_size, windowOf(body), agent);
    const result = refereeAgent(parseRefereeInput(input), agent);
    const detail = agentDetailOf(result);
    const { pending_calls, ...pinned } = entry;
    // Canonical JSON: the stored body's keys come back sorted, and -0 and 0 print alike.
    if (
      canonicalJson([pinned, pending_calls, cohort.monkeys_below, cohort.monkeys_equal, cohort.histogram]) !==
      canonicalJson([
        refereeDetailJson(result),
        detail.pending_calls,
        detail.monkeys_below,
        detail.monkeys_equal,
        detail.histogram,
      ])
    )
      throw new RefereeBoardMismatchError(body.epoch, agent, board.head.seal);
    return detail;
  }
}

/** An agent's full result as the detail route serves it. */
export function agentDetailOf(result: RefereeAgentResult): RefereeAgentDetail {
  return {
    ...refereeDetailJson(result),
    pending_calls: result.pendingCalls,
    monkeys_below: result.monkeysBelow,
    monkeys_equal: result.monkeysEqual,
    monkeys: [...result.monkeySumsR],
    histogram: histogramOf(result.monkeySumsR),
  };
}

/** A bounded map of promises, oldest evicted first; a failed computation is forgotten. */
function remember<T>(
  cache: Map<string, Promise<T>>,
  max: number,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  const hit = cache.get(key);
  if (hit) return hit;
  const value = compute();
  cache.set(key, value);
  value.catch(() => cache.delete(key));
  if (cache.size > max) cache.delete(cache.keys().next().value!);
  return value;
}
