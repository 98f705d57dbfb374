import type { Hex32 } from "@augur/scorer";
import type { RescoreRequest } from "../verify/deep";
import { AugurScorer } from "./augur-scorer";

/** No registration seal is read by the scorer; the creator's other agents are listed only to be found. */
const UNREAD_SEAL = `0x${"0".repeat(64)}` as Hex32;

/**
 * `augur verify --deep`'s rescoring: the cycle's own scorer (AugurScorer, packages/scorer behind
 * the Scorer seam) over one agent, its creator's other agents listed with the sealed rows the
 * manifest names as creator inputs. Returns the manifest the cycle would seal.
 */
export function rescoreAgent(request: RescoreRequest): Record<string, unknown> {
  const { agent, creatorInputs } = request;
  const subject = { ...agent, registrationSeal: UNREAD_SEAL };
  const siblings = [...new Set(creatorInputs.map((c) => c.agentId))].map((agentId) => ({
    agentId,
    creator: agent.creator,
    style: "discretionary",
    registrationSeal: UNREAD_SEAL,
  }));
  const scoring = new AugurScorer().openSeason({
    seasonId: request.seasonId,
    season: { startsAt: request.startsAt, endsAt: request.endsAt },
    asOf: request.asOf,
    agents: [subject, ...siblings],
    priorScores: creatorInputs.map((c) => ({
      agentId: c.agentId,
      seasonId: c.seasonId,
      creator: agent.creator,
      asOf: c.asOf,
      seal: c.seal,
      terms: { performance: c.performance },
    })),
    inputsLogSize: request.inputsLogSize,
  });
  scoring.scoreAgent({ ...subject, records: request.records });
  return { ...scoring.finish()[0]!.manifest };
}
