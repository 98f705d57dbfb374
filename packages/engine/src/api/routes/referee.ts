import type { FastifyInstance, FastifyReply } from "fastify";
import { ApiError } from "../errors";
import type { ApiDeps } from "../deps";
import { errorBody, idSchema } from "../schemas";
import { anchorStatus } from "../views";
import { RefereeBoards, type ServedBoard } from "../../referee/served";
import { findSeason } from "../../store/queries/seasons";
import { boardSchema, detailSchema, inputSchema, leaderboardSchema } from "./referee-schemas";

const epochSchema = { ...idSchema, description: "A season id: one referee epoch per season" } as const;
const epochParams = { type: "object", required: ["epoch"], properties: { epoch: epochSchema } } as const;

/** Which sealed board an answer comes from, and whether it is anchored yet. */
const boardRef = ({ head }: ServedBoard) => ({
  asOf: head.as_of,
  seal: head.seal,
  leafIndex: head.leaf_index,
  anchor: anchorStatus(head),
});

/** A sealed board with its reference. */
const boardView = (board: ServedBoard) => ({
  epoch: board.head.season_id,
  ...boardRef(board),
  body: board.body,
});

/** What `GET /api/v1/referee/:epoch/board` answers. */
export type BoardView = ReturnType<typeof boardView>;

/**
 * The monkey-percentile referee (referee/v1) of an epoch (a season), served from the latest board
 * the hourly cycle sealed (`referee/seal.ts`): the whole-season referee never runs in a request,
 * so no reader can stall the API however often the log grows. A detail recomputes one agent's
 * 2,048 monkeys from the board's anchored input; the input file is rebuilt once per board.
 */
export function refereeRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const db = deps.store.db;
  const boards = new RefereeBoards(db);
  const boardOf = async (epoch: string): Promise<ServedBoard> => {
    const board = await boards.latest(epoch);
    if (board) return board;
    if (!(await findSeason(db, epoch)))
      throw new ApiError(
        404,
        "UNKNOWN_EPOCH",
        `season ${epoch} does not exist (a referee epoch is a season id)`,
      );
    throw new ApiError(
      404,
      "NO_REFEREE_BOARD",
      `season ${epoch} has no referee board yet: the hourly cycle seals one once closes and calls are anchored`,
    );
  };
  app.get(
    "/api/v1/referee/:epoch",
    {
      schema: {
        summary: "The epoch's referee leaderboard (leaderboard.json) from its latest sealed board",
        tags: ["referee"],
        params: epochParams,
        response: { 200: leaderboardSchema, "4xx": errorBody },
      },
    },
    async (request) => (await boardOf((request.params as { epoch: string }).epoch)).body.leaderboard,
  );

  app.get(
    "/api/v1/referee/:epoch/board",
    {
      schema: {
        summary: "The epoch's latest sealed referee board: its seal, anchor status and sealed body",
        tags: ["referee"],
        params: epochParams,
        response: { 200: boardSchema, "4xx": errorBody },
      },
    },
    async (request) => boardView(await boardOf((request.params as { epoch: string }).epoch)),
  );

  app.get(
    "/api/v1/referee/:epoch/agents/:id",
    {
      schema: {
        summary: "One agent's referee detail, with its 2,048 monkeys' Σr and their histogram",
        tags: ["referee"],
        params: {
          type: "object",
          required: ["epoch", "id"],
          properties: { epoch: epochSchema, id: idSchema },
        },
        response: { 200: detailSchema, "4xx": errorBody },
      },
    },
    async (request) => {
      const { epoch, id } = request.params as { epoch: string; id: string };
      const board = await boardOf(epoch);
      const detail = await boards.agentDetail(board, id);
      if (!detail)
        throw new ApiError(404, "UNKNOWN_AGENT", `agent ${id} has no scorable call in epoch ${epoch}`);
      return { ...detail, board: boardRef(board) };
    },
  );

  app.get(
    "/api/v1/referee/:epoch/input",
    {
      schema: {
        summary:
          "The input file of the epoch's latest board: recompute with `augur referee leaderboard --input`",
        tags: ["referee"],
        params: epochParams,
        response: { 200: inputSchema, "4xx": errorBody },
      },
    },
    async (request, reply: FastifyReply) => {
      const board = await boardOf((request.params as { epoch: string }).epoch);
      // Sent as the kept text: re-serialising a season's file on every request would cost as much as building it.
      return reply.type("application/json; charset=utf-8").send(await boards.inputText(board));
    },
  );
}
