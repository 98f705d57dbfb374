// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ICallLedger} from "./interfaces/ICallLedger.sol";
import {IPriceOracle} from "./interfaces/IPriceOracle.sol";
import {ScoreMath} from "./libraries/ScoreMath.sol";

/// @title CallLedger
/// @notice Agents stake USDG, commit hidden price calls, reveal them, and are scored against the
/// PriceOracle; every reveal votes in its round and rounds announce stake-weighted consensus.
/// @dev Admin: `Ownable2Step` (one owner, two-step hand-over so a typo cannot lose the admin). The
/// owner only tunes the allow-list of windows and three consensus/timeout parameters; it can never
/// touch stakes, calls or records.
///
/// Time: only `block.timestamp`. On Arbitrum `block.number` is the L1 height, so "a later block
/// than the commit" is enforced as "a later timestamp", which implies a later block.
///
/// Reentrancy: `deposit` and `withdraw` are the only functions that call a token, and both are
/// `nonReentrant` (transient-storage guard); `withdraw` also updates the stake before sending.
/// `commit`, `reveal`, `settle` and `expire` call nothing but the oracle's `view` functions, which
/// the compiler issues as STATICCALLs, so no state can change under them.
///
/// Call ids: `callId = uint256(uint160(agent)) << 96 | commitSequence << 64 | committedAt`. The id
/// carries who committed and when, so `commit` writes a single new storage slot (the commitment)
/// and stays under its gas target. An id cannot be forged: only `commit` writes a commitment, and
/// it writes it at the id built from `msg.sender`, the agent's own sequence number and the block's
/// timestamp.
///
/// Invariants (tested in test/CallLedger.model.test.ts after every step of random histories):
/// - I1 `usdg.balanceOf(this) >= Σ stake(agent)`, equal unless someone transfers USDG in directly.
/// - I2 for every agent `commits == openCalls + hits + misses + voids`: a call is open from its
///   commit until it is settled or expired, and then counts exactly once.
/// - I3 `streak <= bestStreak <= hits`.
/// - I4 a call moves Committed → Revealed → Settled or Committed → Expired, never back and never
///   twice: settle needs Revealed, expire and reveal need Committed, and each leaves another status.
/// - I5 an agent with open calls has `stake >= minStake` (commit requires it, withdraw keeps it).
/// - I6 in every round `upWeight + downWeight >= voters × 1e18` (each vote is 1e18 + a score), and
///   the round's last consensus direction is that of its latest consensus-log entry.
contract CallLedger is ICallLedger, Ownable2Step, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @dev Packed so that `commit` and `withdraw` touch one slot, `settle` two.
    struct AgentState {
        // slot 0
        uint96 stake;
        uint32 commits;
        uint32 openCalls;
        uint32 hits;
        uint32 misses;
        uint32 voids;
        // slot 1
        uint32 streak;
        uint32 bestStreak;
    }

    /// @dev Two slots. `commit` writes `word` only, so a Committed call is the one state that is
    /// not written in `status`: it is "status None, word set". `word` holds the commitment while
    /// the call is Committed, and the entry terms (`_entryWord`) once it is revealed: reveal
    /// overwrites a live slot (2,900 gas) rather than filling a fresh one (22,100). `expire`
    /// clears it. `status` always says which of the two `word` holds.
    struct CallState {
        // slot 0
        bytes32 word;
        // slot 1
        address asset;
        uint32 window;
        uint40 closesAt;
        Direction direction;
        Status status;
        Outcome outcome;
    }

    /// @dev Slot 0 holds everything a vote or an announcement writes besides the down tally, so
    /// an up vote, and any announcement, rewrite one slot. 224 bits cannot overflow: a vote is
    /// below 2^189 (score < hits × stake × 1e18 / minStake with 32-bit hits, 96-bit stake,
    /// minStake >= 1) and a round has fewer than 2^24 votes. The vote count is checked: the
    /// 2^24-th reveal into one round would revert, which would take some 10^12 gas inside one
    /// window.
    struct RoundState {
        // slot 0
        uint224 upWeight;
        uint24 voters;
        Direction lastConsensus;
        // slot 1
        uint224 downWeight;
    }

    /// @dev A consensus-log entry in two slots, so the reveal that announces writes two fresh
    /// slots, not three. `direction` and `strengthBps` are not stored: `consensusAt` derives them
    /// from the weights (see `_announced`), with the same arithmetic `_vote` used for the event.
    /// Widths, each at least that of its source:
    /// - `bucket` 40 bits: `bucket = closesAt / window <= closesAt = block.timestamp + window`,
    ///   which `CallState.closesAt` already keeps in 40 bits: with a window below 2^32 seconds
    ///   (136 years) it stays under 2^40 until about the year 36,000.
    /// - `window` 32 bits: the type `reveal` takes.
    /// - `voters` 24 bits: the round's own counter (`RoundState.voters`), checked on increment.
    /// - `upWeight`, `downWeight` 128 bits each, when both fit. Otherwise both are stored as zero
    ///   and the exact tallies go to `_wideWeights[index]` (two more slots): an entry is never
    ///   truncated and an announcement never reverts for its size. Zero/zero is free to mean
    ///   "wide": an announcement needs `voters >= consensusQuorum >= 1` and every vote is at least
    ///   1e18 (I6), so a real tally pair is never both zero.
    /// A tally over 128 bits is out of reach of any real round, but the contract's own limits do
    /// not exclude it (a vote can reach 2^189), hence the spill rather than a revert an agent could
    /// be made to hit. 2^128 is 3.4e20 units of 1e18; a vote is 1 + score units, and score <
    /// hits × stake / minStake, so it takes, e.g., 2^24 reveals (a round's cap) each by an agent
    /// with 2,100 hits and 10^10 × minStake staked (a trillion USDG at a 100-USDG minStake).
    struct ConsensusEntry {
        // slot 0
        address asset;
        uint40 bucket;
        uint32 window;
        uint24 voters;
        // slot 1
        uint128 upWeight;
        uint128 downWeight;
    }

    /// @dev The exact tallies of a consensus-log entry that does not fit 128 bits a side.
    struct WideWeights {
        uint256 upWeight;
        uint256 downWeight;
    }

    uint16 private constant MIN_CONFIDENCE_BPS = 5000;
    uint16 private constant BPS = 10_000;

    /// @inheritdoc ICallLedger
    address public immutable override usdg;
    /// @inheritdoc ICallLedger
    address public immutable override oracle;
    /// @inheritdoc ICallLedger
    uint256 public immutable override minStake;

    /// @dev The parameters every reveal reads, and the consensus-log length it may bump, in one
    /// slot of their own (a struct starts a fresh slot; loose they would share the pending
    /// owner's slot and push the counter into another).
    struct Parameters {
        uint32 revealTimeout;
        uint32 consensusQuorum;
        uint16 thresholdBps;
        uint64 consensusCount;
    }

    Parameters private _params;

    /// @inheritdoc ICallLedger
    mapping(uint32 window => bool allowed) public override windowAllowed;

    mapping(address agent => AgentState) private _agents;
    mapping(uint256 callId => CallState) private _calls;
    mapping(bytes32 roundKey => RoundState) private _rounds;
    mapping(uint256 index => ConsensusEntry) private _consensusLog;
    mapping(uint256 index => WideWeights) private _wideWeights;

    /// @param usdg_ The stake token; any decimals (`minStake` is in its units).
    /// @param oracle_ The PriceOracle.
    /// @param minStake_ The stake needed to commit, and the unit of score weight. Immutable, so
    /// scores stay comparable over the ledger's life.
    /// @param admin The owner. Launch parameters: reveal timeout 1 hour, quorum 3, threshold 6667
    /// bps, no window allowed.
    constructor(address usdg_, address oracle_, uint256 minStake_, address admin) Ownable(admin) {
        if (usdg_ == address(0) || oracle_ == address(0)) revert CallLedgerZeroAddress();
        if (minStake_ == 0) revert CallLedgerZeroMinStake();
        usdg = usdg_;
        oracle = oracle_;
        minStake = minStake_;
        _setRevealTimeout(1 hours);
        _setConsensusQuorum(3);
        _setThresholdBps(6667);
    }

    // ---------------------------------------------------------------- stake

    /// @inheritdoc ICallLedger
    function deposit(uint256 amount) external override nonReentrant {
        if (amount == 0) revert CallLedgerZeroAmount();
        AgentState storage agent = _agents[msg.sender];
        uint256 current = agent.stake;
        if (amount > type(uint96).max - current) {
            revert CallLedgerStakeTooLarge(current + amount, type(uint96).max);
        }
        // Measure what actually arrives: a fee-on-transfer token would otherwise credit stake the
        // ledger does not hold, and I1 would break.
        IERC20 token = IERC20(usdg);
        uint256 balanceBefore = token.balanceOf(address(this));
        token.safeTransferFrom(msg.sender, address(this), amount);
        uint256 received = token.balanceOf(address(this)) - balanceBefore;
        if (received != amount) revert CallLedgerTransferShortfall(amount, received);

        uint256 updated = current + amount;
        agent.stake = uint96(updated);
        emit Deposited(msg.sender, amount, updated);
    }

    /// @inheritdoc ICallLedger
    function withdraw(uint256 amount) external override nonReentrant {
        if (amount == 0) revert CallLedgerZeroAmount();
        AgentState storage agent = _agents[msg.sender];
        uint256 current = agent.stake;
        if (amount > current) revert CallLedgerInsufficientStake(current, amount);
        uint256 remaining = current - amount;
        uint256 openCalls = agent.openCalls;
        // I5: the stake behind open calls stays at least minStake until they resolve.
        if (openCalls != 0 && remaining < minStake) {
            revert CallLedgerStakeLocked(remaining, minStake, openCalls);
        }
        agent.stake = uint96(remaining);
        emit Withdrawn(msg.sender, amount, remaining);
        IERC20(usdg).safeTransfer(msg.sender, amount);
    }

    // ---------------------------------------------------------------- calls

    /// @inheritdoc ICallLedger
    function commit(bytes32 commitment) external override returns (uint256 callId) {
        if (commitment == bytes32(0)) revert CallLedgerZeroCommitment();
        AgentState storage agent = _agents[msg.sender];
        uint256 current = agent.stake;
        if (current < minStake) revert CallLedgerStakeBelowMinimum(msg.sender, current, minStake);
        uint32 sequence = agent.commits;
        // Checked arithmetic: the 2^32-th commit reverts, so no counter below can ever overflow
        // (hits + misses + voids <= commits), and settle/expire can never revert on one.
        agent.commits = sequence + 1;
        agent.openCalls += 1;

        callId = (uint256(uint160(msg.sender)) << 96) | (uint256(sequence) << 64) | block.timestamp;
        _calls[callId].word = commitment;
        emit Committed(callId, msg.sender, commitment, uint64(block.timestamp));
    }

    /// @inheritdoc ICallLedger
    function reveal(
        uint256 callId,
        address asset,
        uint32 window,
        Direction direction,
        uint16 confidenceBps,
        bytes32 salt
    ) external override {
        address agent = _checkReveal(callId, asset, window, direction, confidenceBps, salt);
        uint256 entryPrice = IPriceOracle(oracle).price(asset);
        if (entryPrice == 0 || entryPrice > type(uint128).max) {
            revert CallLedgerEntryPriceOutOfRange(asset, entryPrice);
        }
        uint256 closesAt = block.timestamp + window;

        CallState storage call_ = _calls[callId];
        call_.word = _entryWord(entryPrice, confidenceBps);
        call_.asset = asset;
        call_.window = window;
        call_.closesAt = uint40(closesAt);
        call_.direction = direction;
        call_.status = Status.Revealed;

        uint256 vote = ScoreMath.ONE + score(agent);
        emit Revealed(
            callId,
            agent,
            asset,
            window,
            direction,
            confidenceBps,
            salt,
            entryPrice,
            uint40(closesAt),
            vote
        );
        _vote(asset, window, closesAt / window, direction, vote);
    }

    /// @inheritdoc ICallLedger
    function settle(uint256 callId) external override returns (Outcome outcome) {
        CallState storage call_ = _calls[callId];
        Status status = _statusOf(call_);
        if (status != Status.Revealed) {
            if (status == Status.None) revert CallLedgerUnknownCall(callId);
            revert CallLedgerNotRevealed(callId, status);
        }
        uint256 closesAt = call_.closesAt;
        if (block.timestamp < closesAt) revert CallLedgerNotClosed(callId, closesAt, block.timestamp);

        (bool priced, uint256 exitPrice) = _exitPrice(call_.asset, closesAt);
        (uint256 entryPrice, ) = _entryTerms(call_.word);
        if (!priced || exitPrice == entryPrice) {
            outcome = Outcome.Void;
        } else if ((exitPrice > entryPrice) == (call_.direction == Direction.Up)) {
            outcome = Outcome.Hit;
        } else {
            outcome = Outcome.Miss;
        }
        call_.status = Status.Settled;
        call_.outcome = outcome;

        (address agent, ) = _decodeCallId(callId);
        _resolve(agent, outcome);
        emit Settled(callId, agent, outcome, exitPrice);
    }

    /// @inheritdoc ICallLedger
    function expire(uint256 callId) external override {
        CallState storage call_ = _calls[callId];
        _requireCommitted(callId, call_);
        (address agent, uint256 committedAt) = _decodeCallId(callId);
        uint256 deadline = committedAt + _params.revealTimeout;
        if (block.timestamp <= deadline) {
            revert CallLedgerRevealNotTimedOut(callId, deadline, block.timestamp);
        }
        delete call_.word;
        call_.status = Status.Expired;
        call_.outcome = Outcome.Miss;
        _resolve(agent, Outcome.Miss);
        emit Expired(callId, agent);
    }

    // ---------------------------------------------------------------- admin

    /// @inheritdoc ICallLedger
    function setWindow(uint32 window, bool allowed) external override onlyOwner {
        if (window == 0) revert CallLedgerZeroWindow();
        windowAllowed[window] = allowed;
        emit WindowSet(window, allowed);
    }

    /// @inheritdoc ICallLedger
    function setRevealTimeout(uint32 newRevealTimeout) external override onlyOwner {
        _setRevealTimeout(newRevealTimeout);
    }

    /// @inheritdoc ICallLedger
    function setConsensusQuorum(uint32 newConsensusQuorum) external override onlyOwner {
        _setConsensusQuorum(newConsensusQuorum);
    }

    /// @inheritdoc ICallLedger
    function setThresholdBps(uint16 newThresholdBps) external override onlyOwner {
        _setThresholdBps(newThresholdBps);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc ICallLedger
    function computeCommitment(
        address agent,
        address asset,
        uint32 window,
        Direction direction,
        uint16 confidenceBps,
        bytes32 salt
    ) external view override returns (bytes32) {
        return _commitment(agent, asset, window, direction, confidenceBps, salt);
    }

    /// @inheritdoc ICallLedger
    function computeScore(
        uint256 hits_,
        uint256 misses_,
        uint256 stake_
    ) public view override returns (uint256) {
        return ScoreMath.computeScore(hits_, misses_, stake_, minStake);
    }

    /// @inheritdoc ICallLedger
    function score(address agent) public view override returns (uint256) {
        AgentState storage state = _agents[agent];
        return computeScore(state.hits, state.misses, state.stake);
    }

    /// @inheritdoc ICallLedger
    function record(address agent) external view override returns (AgentRecord memory) {
        AgentState storage state = _agents[agent];
        return
            AgentRecord({
                stake: state.stake,
                commits: state.commits,
                openCalls: state.openCalls,
                hits: state.hits,
                misses: state.misses,
                voids: state.voids,
                streak: state.streak,
                bestStreak: state.bestStreak
            });
    }

    /// @inheritdoc ICallLedger
    function getCall(uint256 callId) external view override returns (CallView memory view_) {
        CallState storage call_ = _calls[callId];
        Status status = _statusOf(call_);
        if (status == Status.None) return view_;
        (address agent, uint256 committedAt) = _decodeCallId(callId);
        view_.agent = agent;
        view_.committedAt = uint64(committedAt);
        view_.status = status;
        if (status == Status.Committed) {
            view_.commitment = call_.word;
            return view_;
        }
        view_.outcome = call_.outcome;
        if (status == Status.Expired) return view_;
        (view_.entryPrice, view_.confidenceBps) = _entryTerms(call_.word);
        view_.asset = call_.asset;
        view_.window = call_.window;
        view_.direction = call_.direction;
        view_.closesAt = call_.closesAt;
    }

    /// @inheritdoc ICallLedger
    function round(
        address asset,
        uint32 window,
        uint256 bucket
    )
        external
        view
        override
        returns (uint256 upWeight, uint256 downWeight, uint32 voters, Direction lastConsensus)
    {
        RoundState storage round_ = _rounds[_roundKey(asset, window, bucket)];
        return (round_.upWeight, round_.downWeight, round_.voters, round_.lastConsensus);
    }

    /// @inheritdoc ICallLedger
    function consensus(
        address asset,
        uint32 window
    )
        external
        view
        override
        returns (uint256 bucket, uint256 upWeight, uint256 downWeight, uint32 voters, Direction direction)
    {
        if (window == 0) revert CallLedgerZeroWindow();
        bucket = (block.timestamp + window) / window;
        RoundState storage round_ = _rounds[_roundKey(asset, window, bucket)];
        upWeight = round_.upWeight;
        downWeight = round_.downWeight;
        voters = round_.voters;
        direction = _holding(upWeight, downWeight, voters);
    }

    /// @inheritdoc ICallLedger
    function revealTimeout() external view override returns (uint32) {
        return _params.revealTimeout;
    }

    /// @inheritdoc ICallLedger
    function consensusQuorum() external view override returns (uint32) {
        return _params.consensusQuorum;
    }

    /// @inheritdoc ICallLedger
    function thresholdBps() external view override returns (uint16) {
        return _params.thresholdBps;
    }

    /// @inheritdoc ICallLedger
    function consensusCount() external view override returns (uint256) {
        return _params.consensusCount;
    }

    /// @inheritdoc ICallLedger
    function consensusAt(uint256 index) external view override returns (ConsensusRecord memory) {
        uint256 count = _params.consensusCount;
        if (index >= count) revert CallLedgerConsensusIndexOutOfRange(index, count);
        ConsensusEntry storage entry = _consensusLog[index];
        uint256 upWeight = entry.upWeight;
        uint256 downWeight = entry.downWeight;
        if (upWeight == 0 && downWeight == 0) {
            WideWeights storage wide = _wideWeights[index];
            (upWeight, downWeight) = (wide.upWeight, wide.downWeight);
        }
        (Direction direction, uint16 strengthBps) = _announced(upWeight, downWeight);
        return
            ConsensusRecord({
                asset: entry.asset,
                window: entry.window,
                bucket: entry.bucket,
                direction: direction,
                strengthBps: strengthBps,
                voters: entry.voters,
                upWeight: upWeight,
                downWeight: downWeight
            });
    }

    // ---------------------------------------------------------------- internal

    /// @dev Every check `reveal` makes before reading the oracle; returns the call's agent.
    function _checkReveal(
        uint256 callId,
        address asset,
        uint32 window,
        Direction direction,
        uint16 confidenceBps,
        bytes32 salt
    ) private view returns (address agent) {
        bytes32 committed = _requireCommitted(callId, _calls[callId]);
        uint256 committedAt;
        (agent, committedAt) = _decodeCallId(callId);
        if (msg.sender != agent) revert CallLedgerNotCallAgent(callId, agent, msg.sender);
        if (block.timestamp <= committedAt) revert CallLedgerRevealTooEarly(callId, committedAt);
        uint256 deadline = committedAt + _params.revealTimeout;
        if (block.timestamp > deadline) revert CallLedgerRevealTimedOut(callId, deadline, block.timestamp);

        // The commitment is checked before the values it binds: a call that was committed with
        // a bad window, direction or confidence cannot be revealed, and will expire as a miss.
        bytes32 revealed = _commitment(agent, asset, window, direction, confidenceBps, salt);
        if (revealed != committed) revert CallLedgerCommitmentMismatch(callId, committed, revealed);
        if (!windowAllowed[window]) revert CallLedgerWindowNotAllowed(window);
        if (direction == Direction.None) revert CallLedgerBadDirection(direction);
        if (confidenceBps < MIN_CONFIDENCE_BPS || confidenceBps > BPS) {
            revert CallLedgerBadConfidence(confidenceBps);
        }
    }

    /// @dev Adds `vote` to its round and announces: first when a side holds consensus (quorum and
    /// threshold), then on every change of the leading side (the strictly larger tally), whatever
    /// its strength, as the seed words it ("if the leading direction later flips inside the same
    /// round, a second event is emitted for the new direction"). A tie has no leader and announces
    /// nothing; the side that leads after it is news only if it is not the last announced one.
    function _vote(address asset, uint32 window, uint256 bucket, Direction direction, uint256 vote) private {
        RoundState storage round_ = _rounds[_roundKey(asset, window, bucket)];
        uint256 upWeight = round_.upWeight;
        uint256 downWeight = round_.downWeight;
        uint24 voters = round_.voters + 1;
        if (direction == Direction.Up) {
            upWeight += vote;
            round_.upWeight = SafeCast.toUint224(upWeight);
        } else {
            downWeight += vote;
            round_.downWeight = SafeCast.toUint224(downWeight);
        }
        round_.voters = voters;

        Direction last = round_.lastConsensus;
        Direction leading = last == Direction.None
            ? _holding(upWeight, downWeight, voters)
            : _leading(upWeight, downWeight);
        if (leading == Direction.None || leading == last) return;
        round_.lastConsensus = leading;
        // The log stores neither direction nor strength: `consensusAt` derives both from the
        // tallies with `_announced`, which returns `leading` as the direction (an announced side is
        // always the strictly larger one) and the very strength the event carries.
        (, uint16 strengthBps) = _announced(upWeight, downWeight);
        uint64 index = _params.consensusCount;
        _params.consensusCount = index + 1;
        bool narrow = (upWeight | downWeight) <= type(uint128).max;
        _consensusLog[index] = ConsensusEntry({
            asset: asset,
            bucket: uint40(bucket),
            window: window,
            voters: voters,
            upWeight: narrow ? uint128(upWeight) : 0,
            downWeight: narrow ? uint128(downWeight) : 0
        });
        if (!narrow) _wideWeights[index] = WideWeights({upWeight: upWeight, downWeight: downWeight});
        emit Consensus(asset, window, bucket, leading, strengthBps, voters, upWeight, downWeight);
    }

    /// @dev The direction and strength of an announcement with these tallies. The announced side is
    /// strictly the larger tally (a first announcement holds `thresholdBps` > 5000 of the total, a
    /// flip is a change of the strictly larger side), so the direction is recovered from the
    /// weights alone, whatever the parameters are now. `lead <= total`, so the share fits 16 bits
    /// (at most 10000).
    function _announced(
        uint256 upWeight,
        uint256 downWeight
    ) private pure returns (Direction direction, uint16 strengthBps) {
        uint256 lead = downWeight;
        direction = Direction.Down;
        if (upWeight > downWeight) (direction, lead) = (Direction.Up, upWeight);
        strengthBps = uint16((lead * BPS) / (upWeight + downWeight));
    }

    /// @dev The strictly larger side, or None on a tie.
    function _leading(uint256 upWeight, uint256 downWeight) private pure returns (Direction) {
        if (upWeight > downWeight) return Direction.Up;
        if (downWeight > upWeight) return Direction.Down;
        return Direction.None;
    }

    /// @dev The side holding consensus under the current quorum and threshold, or None. The
    /// threshold is a strict majority, so at most one side can hold it.
    function _holding(uint256 upWeight, uint256 downWeight, uint32 voters) private view returns (Direction) {
        Parameters storage params = _params;
        if (voters < params.consensusQuorum) return Direction.None;
        uint256 needed = uint256(params.thresholdBps) * (upWeight + downWeight);
        if (upWeight * BPS >= needed) return Direction.Up;
        if (downWeight * BPS >= needed) return Direction.Down;
        return Direction.None;
    }

    /// @dev Counts a resolved call in the agent's record (I2, I3).
    function _resolve(address agent, Outcome outcome) private {
        AgentState storage state = _agents[agent];
        state.openCalls -= 1;
        if (outcome == Outcome.Hit) {
            state.hits += 1;
            uint32 run = state.streak + 1;
            state.streak = run;
            if (run > state.bestStreak) state.bestStreak = run;
        } else if (outcome == Outcome.Miss) {
            state.misses += 1;
            if (state.streak != 0) state.streak = 0;
        } else {
            // A void counts as nothing: neither a hit nor a miss, and the streak stands.
            state.voids += 1;
        }
    }

    /// @dev The exit price, or `priced = false` when the oracle says no price covers `closesAt`.
    /// Only the oracle's own "no price" errors void a call; any other failure (including running
    /// out of gas inside the oracle) reverts the settle, so a caller cannot void a call by
    /// starving the oracle of gas.
    function _exitPrice(
        address asset,
        uint256 closesAt
    ) private view returns (bool priced, uint256 exitPrice) {
        try IPriceOracle(oracle).priceAt(asset, closesAt) returns (uint256 price_) {
            return (price_ != 0, price_);
        } catch (bytes memory reason) {
            bytes4 selector = reason.length >= 4 ? bytes4(reason) : bytes4(0);
            if (
                selector == IPriceOracle.PriceOracleNoSource.selector ||
                selector == IPriceOracle.PriceOracleWindowNotCovered.selector ||
                selector == IPriceOracle.PriceOracleStalePrice.selector
            ) {
                return (false, 0);
            }
            assembly ("memory-safe") {
                revert(add(reason, 0x20), mload(reason))
            }
        }
    }

    function _commitment(
        address agent,
        address asset,
        uint32 window,
        Direction direction,
        uint16 confidenceBps,
        bytes32 salt
    ) private view returns (bytes32) {
        return
            keccak256(
                abi.encode(block.chainid, address(this), agent, asset, window, direction, confidenceBps, salt)
            );
    }

    /// @dev Committed is the one status not stored (see `CallState`).
    function _statusOf(CallState storage call_) private view returns (Status status) {
        status = call_.status;
        if (status == Status.None && call_.word != bytes32(0)) status = Status.Committed;
    }

    /// @dev Reverts unless the call is Committed; returns its commitment.
    function _requireCommitted(
        uint256 callId,
        CallState storage call_
    ) private view returns (bytes32 commitment) {
        Status status = call_.status;
        commitment = call_.word;
        if (status == Status.None && commitment != bytes32(0)) return commitment;
        if (status == Status.None) revert CallLedgerUnknownCall(callId);
        revert CallLedgerNotCommitted(callId, status);
    }

    /// @dev The entry terms of a revealed call, packed in its first slot: the price (checked to
    /// fit 128 bits) in the low half, the confidence above it.
    function _entryWord(uint256 entryPrice, uint16 confidenceBps) private pure returns (bytes32) {
        return bytes32(entryPrice | (uint256(confidenceBps) << 128));
    }

    function _entryTerms(bytes32 word) private pure returns (uint256 entryPrice, uint16 confidenceBps) {
        entryPrice = uint128(uint256(word));
        confidenceBps = uint16(uint256(word) >> 128);
    }

    function _decodeCallId(uint256 callId) private pure returns (address agent, uint256 committedAt) {
        agent = address(uint160(callId >> 96));
        committedAt = uint64(callId);
    }

    function _roundKey(address asset, uint32 window, uint256 bucket) private pure returns (bytes32) {
        return keccak256(abi.encode(asset, window, bucket));
    }

    function _setRevealTimeout(uint32 newRevealTimeout) private {
        if (newRevealTimeout == 0) revert CallLedgerBadRevealTimeout(newRevealTimeout);
        _params.revealTimeout = newRevealTimeout;
        emit RevealTimeoutSet(newRevealTimeout);
    }

    function _setConsensusQuorum(uint32 newConsensusQuorum) private {
        if (newConsensusQuorum == 0) revert CallLedgerBadQuorum(newConsensusQuorum);
        _params.consensusQuorum = newConsensusQuorum;
        emit ConsensusQuorumSet(newConsensusQuorum);
    }

    function _setThresholdBps(uint16 newThresholdBps) private {
        if (newThresholdBps <= BPS / 2 || newThresholdBps > BPS)
            revert CallLedgerBadThreshold(newThresholdBps);
        _params.thresholdBps = newThresholdBps;
        emit ThresholdSet(newThresholdBps);
    }
}
