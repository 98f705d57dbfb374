#!/usr/bin/env python3
"""Verify one Augur score by hand: the seed's four recompute steps, Python 3 standard library only.

Written from docs/ alone (docs/verify-by-hand.md walks through it), sharing no code with the
engine: RFC 8785 canonical JSON, sha256 seals, RFC 6962 / 9162 inclusion proofs, augur-score/v1
arithmetic, and the AnchorRegistry's posted roots read with eth_call at the published selector.

  python3 verify_score.py --api http://127.0.0.1:8787 --agent ID --season S \\
      --rpc http://127.0.0.1:8545 --registry 0x... [--block-tag latest] [--confirmations 1]

Exit codes: 0 verified, 1 not verified (or the engine or chain could not be read), 2 bad
command line, 3 pending (steps 1-3 passed, the score's own anchor is not mined yet).
"""
import argparse
import decimal
import hashlib
import json
import math
import sys
import urllib.error
import urllib.parse
import urllib.request

# docs/abi/README.md: AnchorRegistry.rootOf(uint64) -> bytes32 (zero when no head of that size).
ROOT_OF_SELECTOR = "9d7384d9"
TIMEOUT_S = 10

# augur-score/v1 as docs/augur-score-v1.md publishes it: this script's own copy, compared with
# the manifest's `formula` (step 3), so an edited constant cannot pass.
AUGUR_SCORE_V1 = {
    "version": "augur-score/v1",
    "weights": {"performance": 0.35, "risk": 0.25, "consistency": 0.15, "calibration": 0.1,
                "longevity": 0.1, "creator": 0.05},
    "constants": {
        "performance_return_scale": 0.2, "risk_sigma_scale": 0.05, "risk_drawdown_scale": 0.2,
        "consistency_sigma_scale": 0.04, "calibration_brier_scale": 0.25, "longevity_full_days": 21,
        "min_exposure": 0.02, "min_resolved_calls": 5, "min_own_decisions": 5, "min_snapshots": 3,
        "multiplier_base": 0.8, "multiplier_match_weight": 0.2, "overall_decimals": 1,
        "seconds_per_day": 86400,
    },
    "dna": {
        "version": "augur-dna/v1",
        "features": ["trades_per_day", "decisions_per_day", "holding_hours", "directional_bias",
                     "prior_move_alignment"],
        "min_decisions_for_match": 5,
        "styles": {
            "momentum": [
                {"feature": "prior_move_alignment", "min": 0.2, "max": None, "width": 0.4},
                {"feature": "holding_hours", "min": None, "max": 72, "width": 72},
                {"feature": "trades_per_day", "min": 0.5, "max": None, "width": 0.5},
            ],
            "mean-reversion": [
                {"feature": "prior_move_alignment", "min": None, "max": -0.2, "width": 0.4},
                {"feature": "holding_hours", "min": None, "max": 72, "width": 72},
            ],
            "trend-following": [
                {"feature": "prior_move_alignment", "min": 0.2, "max": None, "width": 0.4},
                {"feature": "holding_hours", "min": 72, "max": None, "width": 72},
            ],
            "market-neutral": [
                {"feature": "directional_bias", "min": -0.2, "max": 0.2, "width": 0.4},
                {"feature": "prior_move_alignment", "min": -0.3, "max": 0.3, "width": 0.4},
            ],
            "discretionary": [],
        },
    },
}
TERMS = ["performance", "risk", "consistency", "calibration", "longevity", "creator"]


class Unreadable(Exception):
    """The engine or the chain gave no usable answer."""


# --- RFC 8785 (JCS) canonical JSON --------------------------------------------------------------

def es_number(x):
    """ECMAScript Number::toString, which RFC 8785 prescribes for every number."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise ValueError("not a number")
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        raise ValueError("NaN and Infinity have no JSON form")
    if x == 0:
        return "0"
    if x < 0:
        return "-" + es_number(-x)
    # repr() gives the shortest digits that round-trip, as ECMAScript does.
    _, digits, exponent = decimal.Decimal(repr(x)).as_tuple()
    s = "".join(map(str, digits)).rstrip("0")
    exponent += len(digits) - len(s)
    k, n = len(s), len(s) + exponent  # x = 0.s × 10^n
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + s
    e = n - 1
    mantissa = s if k == 1 else s[0] + "." + s[1:]
    return mantissa + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def es_string(text):
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch in "\b\f\n\r\t":
            out.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif code < 0x20:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def canonical(value):
    """RFC 8785: no whitespace, keys sorted by UTF-16 code units, ECMAScript numbers and strings."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return es_string(value)
    if isinstance(value, (int, float)):
        return es_number(value)
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(es_string(k) + ":" + canonical(value[k]) for k in keys) + "}"
    raise ValueError("not JSON: %r" % (value,))


def sha256_hex(data):
    return "0x" + hashlib.sha256(data).hexdigest()


def seal_of(record):
    return sha256_hex(canonical(record).encode("utf-8"))


# --- RFC 6962 / 9162 Merkle inclusion -----------------------------------------------------------

def leaf_hash(seal):
    return hashlib.sha256(b"\x00" + bytes.fromhex(seal[2:])).digest()


def node_hash(left, right):
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_from_inclusion(seal, leaf_index, tree_size, proof):
    """RFC 9162 §2.1.3.2; None when the proof has the wrong length for (leaf_index, tree_size)."""
    if leaf_index >= tree_size:
        return None
    fn, sn, r = leaf_index, tree_size - 1, leaf_hash(seal)
    for p in proof:
        p = bytes.fromhex(p[2:])
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn >>= 1
                sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return "0x" + r.hex() if sn == 0 else None


# --- HTTP: the engine's API and the chain's JSON-RPC ---------------------------------------------

def http_json(url, body=None):
    data = None if body is None else json.dumps(body).encode("utf-8")
    headers = {"accept": "application/json"}
    if data is not None:
        headers["content-type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            return response.status, json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.loads(error.read().decode("utf-8"))
        except ValueError:
            raise Unreadable("%s: HTTP %d, not JSON" % (url, error.code))
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise Unreadable("%s: %s" % (url, getattr(error, "reason", error)))


def rpc(url, method, params):
    _, answer = http_json(url, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    if "error" in answer or "result" not in answer:
        raise Unreadable("%s: %s failed: %s" % (url, method, answer.get("error")))
    return answer["result"]


class Verifier:
    def __init__(self, args):
        self.api = args.api.rstrip("/")
        if self.api.endswith("/api/v1"):
            self.api = self.api[: -len("/api/v1")]
        self.args = args
        self.failed = 0
        self.head = None

    def get(self, path):
        return http_json(self.api + path)

    def report(self, step, ok, text, pending=False):
        print("step %d %s: %s" % (step, "pending" if pending else "passed" if ok else "FAILED", text))
        if not ok and not pending:
            self.failed += 1

    def posted_root(self, tree_size):
        """AnchorRegistry.rootOf(treeSize) at the block tag, by eth_call with the published selector."""
        data = "0x" + ROOT_OF_SELECTOR + format(tree_size, "064x")
        call = {"to": self.args.registry, "data": data}
        return "0x" + rpc(self.args.rpc, "eth_call", [call, self.args.block_tag])[2:].rjust(64, "0")

    def anchored(self, label, seal):
        """A seal's anchor, checked locally and on chain: (leaf index, anchor) or None, and why."""
        status, body = self.get("/api/v1/anchors/leaves/" + seal)
        if status != 200:
            why = "pending" if body.get("status") == "pending" else "HTTP %d %s" % (status, body.get("error"))
            return None, "%s %s: not in a mined anchor (%s)" % (label, seal[:10], why)
        anchor, proof = body["anchor"], body["proof"]
        leaf_index, tree_size = body["leafIndex"], anchor["treeSize"]
        if proof["leafIndex"] != leaf_index or proof["treeSize"] != tree_size:
            return None, "%s: the proof names another leaf or tree" % label
        root = root_from_inclusion(seal, leaf_index, tree_size, proof["hashes"])
        if root != anchor["root"]:
            return None, "%s: the inclusion proof does not lead to the anchor's root" % label
        if self.posted_root(tree_size) != root:
            return None, "%s: AnchorRegistry.rootOf(%d) is not that root" % (label, tree_size)
        depth = self.head - anchor["blockNumber"] + 1
        if depth < self.args.confirmations:
            return None, "%s: its anchor has %d confirmations, fewer than %d" % (
                label, depth, self.args.confirmations)
        return (leaf_index, anchor), "%s %s: leaf %d of tree %d, root on chain, %d confirmations" % (
            label, seal[:10], leaf_index, tree_size, depth)

    def run(self):
        args = self.args
        self.head = int(rpc(args.rpc, "eth_blockNumber", []), 16)
        query = urllib.parse.urlencode({"season_id": args.season})
        status, row = self.get("/api/v1/agents/%s/score?%s" % (urllib.parse.quote(args.agent), query))
        if status != 200:
            raise Unreadable("score of %s: HTTP %d %s" % (args.agent, status, row.get("error")))
        seal = row["seal"]

        # Step 1: the manifest, as served (its canonical text), hashes to the seal; parsed and put
        # back into RFC 8785 form, it gives the same bytes.
        text = row["manifest"] if isinstance(row["manifest"], str) else canonical(row["manifest"])
        manifest = json.loads(text)
        hashed = sha256_hex(text.encode("utf-8"))
        self.report(1, hashed == seal and canonical(manifest) == text,
                    "sha256(manifest) = %s, seal %s; the text is RFC 8785 canonical: %s" % (
                        hashed[:10], seal[:10], canonical(manifest) == text))

        # Step 2: the input seals it names sit in mined anchors; the snapshot records themselves
        # hash to their seals.
        inputs = manifest["inputs"]
        named = []
        for label in ("first_snapshot_seal", "last_snapshot_seal"):
            if inputs.get(label) and inputs[label] not in [s for _, s in named]:
                named.append((label.replace("_seal", "").replace("_", " "), inputs[label]))
        for creator_input in (manifest["measured"] or {}).get("creator_inputs", []):
            named.append(("creator input " + creator_input["agent"], creator_input["seal"]))
        found, notes = [], []
        for label, input_seal in named:
            if label.endswith("snapshot"):
                status, record = self.get("/api/v1/records/" + input_seal)
                if status != 200 or seal_of(record["body"]) != input_seal:
                    notes.append("%s: the record does not hash to its seal" % label)
                    continue
            place, note = self.anchored(label, input_seal)
            notes.append(note)
            if place:
                found.append(place)
        self.report(2, len(found) == len(named), "%d of %d input seals in anchors posted on chain" % (
            len(found), len(named)))
        for note in notes:
            print("  " + note)

        # Step 3: the named formula, with this script's constants, over the measured values.
        differ = recompute(manifest)
        self.report(3, not differ, "%s reproduces every output bit for bit" % AUGUR_SCORE_V1["version"]
                    if not differ else "%d values differ" % len(differ))
        for line in differ:
            print("  " + line)

        # Step 4: the score's own seal, in an anchor later than its inputs'.
        if row.get("anchor", {}).get("status") == "pending":
            self.report(4, False, "score seal %s is not anchored yet" % seal[:10], pending=True)
        else:
            place, note = self.anchored("score", seal)
            later = place is not None and all(
                place[0] >= anchor["treeSize"] and place[1]["anchorIndex"] > anchor["anchorIndex"]
                for _, anchor in found)
            self.report(4, later, note + ("; a later anchor than its inputs'" if later else ""))
        if self.failed:
            print("not verified: %d of 4 steps failed" % self.failed)
            return 1
        if row.get("anchor", {}).get("status") == "pending":
            print("pending: steps 1-3 passed; the score's anchor is not mined yet")
            return 3
        print("verified: score %s" % canonical(manifest["outputs"]["score"]))
        return 0


# --- augur-score/v1 (docs/augur-score-v1.md, "Exact arithmetic") --------------------------------

def clamp01(x):
    return 0 if x < 0 else 1 if x > 1 else x


def js_round(x):
    """Math.round: the nearest integer, halves toward +infinity."""
    r = math.floor(x)
    return r + 1 if x - r >= 0.5 else r


def recompute(manifest):
    f = AUGUR_SCORE_V1
    c, inputs, measured, outputs = f["constants"], manifest["inputs"], manifest["measured"], manifest["outputs"]
    differ = []

    def check(field, stated, computed):
        if canonical(stated) != canonical(computed):
            differ.append("%s: manifest %s, recomputed %s" % (field, canonical(stated), canonical(computed)))

    check("formula", manifest["formula"], f)
    if inputs["snapshot_count"] < c["min_snapshots"]:
        reason = "too_few_snapshots"
    elif inputs["own_decision_count"] < c["min_own_decisions"]:
        reason = "too_few_own_decisions"
    else:
        reason = None
    if reason is not None or measured is None:
        # A null row: every term null, no weights, and the reason in place of a score.
        check("outputs", outputs, {"terms": {t: None for t in TERMS}, "weights_used": {}, "weighted": None,
                                   "multiplier": None, "score": None, "reason": reason or "too_few_snapshots"})
        check("measured is null exactly when ineligible", measured is None, reason is not None)
        return differ

    m = measured
    sigma_x = m["sigma"] / m["exposure"]
    drawdown_x = m["max_drawdown"] / m["exposure"]
    creator = None
    if m["creator_inputs"]:
        total = 0
        for creator_input in m["creator_inputs"]:  # in the manifest's order
            total += creator_input["performance"]
        creator = total / len(m["creator_inputs"])
    terms = {
        "performance": clamp01(0.5 + m["return"] / c["performance_return_scale"]) * 100,
        "risk": 0.5 * clamp01(1 - sigma_x / c["risk_sigma_scale"]) * 100
        + 0.5 * clamp01(1 - drawdown_x / c["risk_drawdown_scale"]) * 100,
        "consistency": clamp01(1 - sigma_x / c["consistency_sigma_scale"]) * 100,
        "calibration": None if m["brier"] is None else clamp01(1 - m["brier"] / c["calibration_brier_scale"]) * 100,
        "longevity": clamp01(m["days"] / c["longevity_full_days"]) * 100,
        "creator": creator,
    }
    weight_sum = 0
    weighted_sum = 0
    for t in TERMS:  # the seed's order, measured terms only
        if terms[t] is not None:
            weight_sum += f["weights"][t]
            weighted_sum += f["weights"][t] * terms[t]
    weights_used = {t: f["weights"][t] / weight_sum for t in TERMS if terms[t] is not None}
    weighted = weighted_sum / weight_sum

    # Strategy match: mean fit of the style's regions over the measurable features.
    style = manifest["subject"]["style"]
    match = 1
    if inputs["own_decision_count"] >= f["dna"]["min_decisions_for_match"]:
        fit_sum, fit_count = 0, 0
        for region in f["dna"]["styles"][style]:
            value = m["dna"][region["feature"]]
            if value is None:
                continue
            distance = 0
            if region["min"] is not None and value < region["min"]:
                distance = region["min"] - value
            elif region["max"] is not None and value > region["max"]:
                distance = value - region["max"]
            fit_sum += max(0, 1 - distance / region["width"])
            fit_count += 1
        match = 1 if fit_count == 0 else fit_sum / fit_count
    multiplier = c["multiplier_base"] + c["multiplier_match_weight"] * match
    scale = 10 ** c["overall_decimals"]
    score = js_round(weighted * multiplier * scale) / scale

    check("measured.match", m["match"], match)
    for t in TERMS:
        check("outputs.terms." + t, outputs["terms"][t], terms[t])
    check("outputs.weights_used", outputs["weights_used"], weights_used)
    check("outputs.weighted", outputs["weighted"], weighted)
    check("outputs.multiplier", outputs["multiplier"], multiplier)
    check("outputs.score", outputs["score"], score)
    check("outputs.reason", outputs["reason"], None)
    return differ


def main(argv):
    global TIMEOUT_S
    parser = argparse.ArgumentParser(description="Verify one Augur score by hand (seed steps 1-4).")
    parser.add_argument("--api", required=True, help="the engine's origin, or its .../api/v1 base")
    parser.add_argument("--agent", required=True)
    parser.add_argument("--season", required=True)
    parser.add_argument("--rpc", required=True, help="JSON-RPC URL of the chain holding AnchorRegistry")
    parser.add_argument("--registry", required=True, help="AnchorRegistry address, from deployments/<network>.json")
    parser.add_argument("--block-tag", default="latest", help="block the registry is read at (default latest)")
    parser.add_argument("--confirmations", type=int, default=1, help="blocks an anchor needs (default 1)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_S, help="seconds per request (default 10)")
    args = parser.parse_args(argv)
    TIMEOUT_S = args.timeout
    try:
        return Verifier(args).run()
    except Unreadable as error:
        print("verify_score.py: %s" % error, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
