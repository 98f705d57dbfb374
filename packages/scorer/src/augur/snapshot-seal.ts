import { hash } from "node:crypto";
import { type Digest, sha256Digest } from "../digest";
import type { Hex32 } from "../hex";
import type { SnapshotInput } from "./types";

/**
 * The RFC 8785 canonical JSON of a validated snapshot row without a `seal` field, written directly: its keys are fixed
 * and already in JCS order, and JSON.stringify writes strings and finite numbers exactly as JCS
 * does. Equal to `canonicalJson(row)` (property-tested); about 10× faster on a season's rows.
 */
export function snapshotCanonicalJson(row: SnapshotInput): string {
  return (
    `{"agent":${JSON.stringify(row.agent)},"at":${JSON.stringify(row.at)},"flow":${JSON.stringify(row.flow)},` +
    `"invested":${JSON.stringify(row.invested)},"nav":${JSON.stringify(row.nav)}}`
  );
}

/** The digest of sealSnapshot(row): its given `seal` decoded, else sha256 of its canonical JSON (UTF-8). */
export function snapshotSealDigest(row: SnapshotInput): Digest {
  return row.seal
    ? Buffer.from(row.seal.slice(2), "hex").toString("binary")
    : sha256Digest(snapshotCanonicalJson(row));
}

/** The seal a manifest names for a validated snapshot row: its given `seal`, else seal(row). */
export function sealSnapshot(row: SnapshotInput): Hex32 {
  return row.seal ?? `0x${hash("sha256", snapshotCanonicalJson(row), "hex")}`;
}
