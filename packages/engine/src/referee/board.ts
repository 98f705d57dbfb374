import {
  canonicalJson,
  type Hex32,
  parseRefereeInput,
  type RefereeInput,
  refereeLeaderboard,
  refereeLeaderboardJson,
  type RefereeLeaderboardJson,
  seal,
} from "@augur/scorer";
import { histogramOf, type RefereeHistogram } from "./histogram";
import type { CloseWindow } from "./input";

/** The format name of a sealed referee board; a change to its fields is a new version. */
export const REFEREE_BOARD_FORMAT = "augur-referee-board/v1";

/** What a board's input was read from: the rows of the log below an anchored tree size. */
export interface RefereeBoardInputs {
  /** The anchor whose tree the inputs were read under (closes and calls with a leaf below `treeSize`). */
  readonly anchorIndex: number;
  readonly treeSize: number;
  readonly root: string;
  /** The hours of the closes in the file (unix seconds, both included). */
  readonly closesFrom: number;
  readonly closesTo: number;
  /** Revealed calls left out because their slot hour had no close. */
  readonly waitingCalls: number;
}

/** One agent's monkeys as the site draws them: the counts behind the percentile and a histogram. */
export interface RefereeCohortJson {
  readonly agent: string;
  readonly monkeys_below: number;
  readonly monkeys_equal: number;
  readonly histogram: RefereeHistogram;
}

/**
 * The sealed body of one referee board: leaderboard.json of the epoch as of the cycle's hour,
 * which anchored rows it was computed from, the input file's seal, and every agent's cohort
 * summary (in leaderboard order). The 2,048 monkey sums per agent are not stored (16 KB an
 * agent, every hour): a request recomputes the one agent it asks about.
 */
export interface RefereeBoardBody {
  readonly format: typeof REFEREE_BOARD_FORMAT;
  readonly epoch: string;
  /** The cycle's hour, unix seconds. */
  readonly asOf: number;
  readonly inputs: RefereeBoardInputs;
  /** sha256 of the input file's RFC 8785 form (`GET /api/v1/referee/:epoch/input`). */
  readonly inputSeal: Hex32;
  readonly leaderboard: RefereeLeaderboardJson;
  readonly cohorts: readonly RefereeCohortJson[];
}

/** A board ready to store: its body, sealed text and seal. */
export interface SealedRefereeBoard {
  readonly body: RefereeBoardBody;
  readonly text: string;
  readonly seal: Hex32;
}

/** Where the board's input came from: the anchor read under and the hours of the closes. */
export interface RefereeBoardSource {
  readonly epoch: string;
  readonly asOf: number;
  readonly anchor: { readonly anchorIndex: number; readonly treeSize: number; readonly root: string };
  readonly window: CloseWindow;
  readonly waitingCalls: number;
}

/**
 * Runs the scorer's referee over `input` (the whole season: the cycle's job, never a request's)
 * and seals the board. `inputSeal` is the input's seal when the caller has it already.
 */
export function sealRefereeBoard(
  input: RefereeInput,
  source: RefereeBoardSource,
  inputSeal: Hex32 = seal(input),
): SealedRefereeBoard {
  const board = refereeLeaderboard(parseRefereeInput(input));
  const body: RefereeBoardBody = {
    format: REFEREE_BOARD_FORMAT,
    epoch: source.epoch,
    asOf: source.asOf,
    inputs: {
      anchorIndex: source.anchor.anchorIndex,
      treeSize: source.anchor.treeSize,
      root: source.anchor.root,
      closesFrom: source.window.from,
      closesTo: source.window.to,
      waitingCalls: source.waitingCalls,
    },
    inputSeal,
    leaderboard: refereeLeaderboardJson(board, inputSeal),
    cohorts: board.agents.map((a) => ({
      agent: a.agent,
      monkeys_below: a.monkeysBelow,
      monkeys_equal: a.monkeysEqual,
      histogram: histogramOf(a.monkeySumsR),
    })),
  };
  const text = canonicalJson(body);
  return { body, text, seal: seal(body) };
}
