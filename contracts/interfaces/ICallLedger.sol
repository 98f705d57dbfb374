// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title ICallLedger
/// @notice Staked commit-reveal price calls by AI trading agents, scored on chain against a TWAP
/// oracle, with stake-weighted consensus per round.
/// @dev Every state change emits an event carrying enough to rebuild each agent's record, each
/// call and each consensus round from logs alone (see docs/call-ledger.md, "Indexing").
interface ICallLedger {
    /// @notice The way an agent calls the price to move. `None` is never a valid call.
    enum Direction {
        None,
        Up,
        Down
    }

    /// @notice Where a call is in its lifecycle. `None` means no call has that id.
    enum Status {
        None,
        Committed,
        Revealed,
        Settled,
        Expired
    }

    /// @notice How a resolved call counted. Expired calls count as `Miss`.
    enum Outcome {
        None,
        Hit,
        Miss,
        Void
    }

    /// @notice An agent's stake and track record.
    /// @param stake USDG held for the agent (token units).
    /// @param commits Calls ever committed; also the sequence number of the agent's next call.
    /// @param openCalls Calls committed or revealed and not yet settled or expired.
    /// @param hits Calls settled in the called direction.
    /// @param misses Calls settled against the called direction, plus expired commits.
    /// @param voids Calls settled with no move, or with no price covering `closesAt`.
    /// @param streak Current run of consecutive hits (voids neither extend nor break it).
    /// @param bestStreak Longest `streak` ever.
    struct AgentRecord {
        uint256 stake;
        uint256 commits;
        uint256 openCalls;
        uint256 hits;
        uint256 misses;
        uint256 voids;
        uint256 streak;
        uint256 bestStreak;
    }

    /// @notice Everything stored about one call.
    /// @dev `commitment` is cleared once the call is revealed or expired (it stays in the
    /// `Committed` event); `asset` to `entryPrice` are zero until the call is revealed.
    struct CallView {
        address agent;
        uint64 committedAt;
        Status status;
        Outcome outcome;
        bytes32 commitment;
        address asset;
        uint32 window;
        Direction direction;
        uint16 confidenceBps;
        uint40 closesAt;
        uint256 entryPrice;
    }

    /// @notice One entry of the on-chain consensus log, identical to the `Consensus` event.
    struct ConsensusRecord {
        address asset;
        uint32 window;
        uint256 bucket;
        Direction direction;
        uint16 strengthBps;
        uint32 voters;
        uint256 upWeight;
        uint256 downWeight;
    }

    /// @notice The USDG token, the oracle or the admin was the zero address.
    error CallLedgerZeroAddress();
    /// @notice `minStake` must be positive: it is the unit of every score weight.
    error CallLedgerZeroMinStake();
    /// @notice Deposits and withdrawals move a positive amount.
    error CallLedgerZeroAmount();
    /// @notice The token delivered `received` instead of `expected` (fee-on-transfer or rebasing).
    error CallLedgerTransferShortfall(uint256 expected, uint256 received);
    /// @notice A deposit would take the stake above the 96-bit storage field.
    error CallLedgerStakeTooLarge(uint256 stake, uint256 maxStake);
    /// @notice `amount` is more than the agent's `stake`.
    error CallLedgerInsufficientStake(uint256 stake, uint256 amount);
    /// @notice The agent has `openCalls` open: its stake may not fall below `minStake`.
    error CallLedgerStakeLocked(uint256 remaining, uint256 minStake, uint256 openCalls);
    /// @notice Committing needs a stake of at least `minStake`.
    error CallLedgerStakeBelowMinimum(address agent, uint256 stake, uint256 minStake);
    /// @notice The zero commitment is reserved for "no call".
    error CallLedgerZeroCommitment();
    /// @notice No call has this id.
    error CallLedgerUnknownCall(uint256 callId);
    /// @notice The call must be `Committed` for this operation but is in `status`.
    error CallLedgerNotCommitted(uint256 callId, Status status);
    /// @notice The call must be `Revealed` for this operation but is in `status`.
    error CallLedgerNotRevealed(uint256 callId, Status status);
    /// @notice Only the committing `agent` may reveal its call.
    error CallLedgerNotCallAgent(uint256 callId, address agent, address caller);
    /// @notice A call is revealed in a later block than its commit (a later timestamp).
    error CallLedgerRevealTooEarly(uint256 callId, uint256 committedAt);
    /// @notice The reveal deadline `deadline` has passed; the call can only expire.
    error CallLedgerRevealTimedOut(uint256 callId, uint256 deadline, uint256 timestamp);
    /// @notice The call can still be revealed until `deadline`; it cannot expire yet.
    error CallLedgerRevealNotTimedOut(uint256 callId, uint256 deadline, uint256 timestamp);
    /// @notice The revealed values hash to `revealed`, not to the `committed` commitment.
    error CallLedgerCommitmentMismatch(uint256 callId, bytes32 committed, bytes32 revealed);
    /// @notice `window` is not on the allow-list.
    error CallLedgerWindowNotAllowed(uint32 window);
    /// @notice A call must be `Up` or `Down`.
    error CallLedgerBadDirection(Direction direction);
    /// @notice Confidence is a probability in basis points within [5000, 10000].
    error CallLedgerBadConfidence(uint16 confidenceBps);
    /// @notice The oracle's entry price is zero or does not fit 128 bits.
    error CallLedgerEntryPriceOutOfRange(address asset, uint256 price);
    /// @notice The call closes at `closesAt`; it cannot be settled before.
    error CallLedgerNotClosed(uint256 callId, uint256 closesAt, uint256 timestamp);
    /// @notice A window of zero seconds has no buckets.
    error CallLedgerZeroWindow();
    /// @notice The reveal timeout must be positive.
    error CallLedgerBadRevealTimeout(uint256 revealTimeout);
    /// @notice The consensus quorum must be at least one voter.
    error CallLedgerBadQuorum(uint256 consensusQuorum);
    /// @notice The threshold must be a strict majority: within [5001, 10000] basis points.
    error CallLedgerBadThreshold(uint256 thresholdBps);
    /// @notice The consensus log has `count` entries; `index` is past its end.
    error CallLedgerConsensusIndexOutOfRange(uint256 index, uint256 count);

    /// @notice `agent` deposited `amount`, taking its stake to `stake`.
    event Deposited(address indexed agent, uint256 amount, uint256 stake);
    /// @notice `agent` withdrew `amount`, leaving its stake at `stake`.
    event Withdrawn(address indexed agent, uint256 amount, uint256 stake);
    /// @notice `agent` committed `commitment` as call `callId` at `committedAt`.
    event Committed(uint256 indexed callId, address indexed agent, bytes32 commitment, uint64 committedAt);
    /// @notice Call `callId` was revealed: it opened at `entryPrice`, closes at `closesAt`, and
    /// added `vote` (1e18 + the agent's score at reveal) to round `(asset, window, closesAt / window)`.
    /// @dev `salt` is included so anyone can recompute the commitment from logs.
    event Revealed(
        uint256 indexed callId,
        address indexed agent,
        address indexed asset,
        uint32 window,
        Direction direction,
        uint16 confidenceBps,
        bytes32 salt,
        uint256 entryPrice,
        uint40 closesAt,
        uint256 vote
    );
    /// @notice Call `callId` was settled with `outcome` at `exitPrice` (zero when no price
    /// covered `closesAt`, which voids the call).
    event Settled(uint256 indexed callId, address indexed agent, Outcome outcome, uint256 exitPrice);
    /// @notice Call `callId` was never revealed and counts as a miss.
    event Expired(uint256 indexed callId, address indexed agent);
    /// @notice Round `(asset, window, bucket)` reached consensus on `direction` (quorum and
    /// threshold), or, after that first announcement, its leading side changed to `direction`
    /// (a flip, announced whatever its strength; a tie has no leader and announces nothing).
    /// @param strengthBps The leading side's share of all votes, rounded down.
    event Consensus(
        address indexed asset,
        uint32 indexed window,
        uint256 indexed bucket,
        Direction direction,
        uint16 strengthBps,
        uint32 voters,
        uint256 upWeight,
        uint256 downWeight
    );
    /// @notice The owner allowed or disallowed calls over `window` seconds.
    event WindowSet(uint32 indexed window, bool allowed);
    /// @notice The owner set how long after its commit a call can be revealed.
    event RevealTimeoutSet(uint32 revealTimeout);
    /// @notice The owner set the number of votes a round needs before consensus can hold.
    event ConsensusQuorumSet(uint32 consensusQuorum);
    /// @notice The owner set the leading side's share (basis points) that makes consensus.
    event ThresholdSet(uint16 thresholdBps);

    /// @notice Adds `amount` USDG, pulled from the caller, to the caller's stake.
    /// @dev Reverts with `CallLedgerTransferShortfall` if the ledger receives less than `amount`.
    function deposit(uint256 amount) external;

    /// @notice Sends `amount` of the caller's stake back to the caller.
    /// @dev While the caller has open calls its stake may not fall below `minStake`.
    function withdraw(uint256 amount) external;

    /// @notice Commits a hidden call for the caller, who must hold at least `minStake`.
    /// @param commitment `keccak256(abi.encode(block.chainid, address(this), agent, asset, window,
    /// direction, confidenceBps, salt))`, see `computeCommitment`.
    /// @return callId `uint256(uint160(agent)) << 96 | commitSequence << 64 | committedAt`.
    function commit(bytes32 commitment) external returns (uint256 callId);

    /// @notice Reveals the caller's call `callId`, in a later block than its commit and at most
    /// `revealTimeout` seconds after it. Opens the call at `oracle.price(asset)`, sets
    /// `closesAt = block.timestamp + window` and votes in round `(asset, window, closesAt / window)`.
    function reveal(
        uint256 callId,
        address asset,
        uint32 window,
        Direction direction,
        uint16 confidenceBps,
        bytes32 salt
    ) external;

    /// @notice Settles revealed call `callId` once `closesAt` has come, against
    /// `oracle.priceAt(asset, closesAt)`. Anyone may call it.
    /// @return outcome `Hit`, `Miss`, or `Void` when the price did not move or no price covers `closesAt`.
    function settle(uint256 callId) external returns (Outcome outcome);

    /// @notice Expires call `callId`, never revealed within `revealTimeout`; it counts as a miss.
    /// Anyone may call it.
    function expire(uint256 callId) external;

    /// @notice Allows or disallows calls over `window` seconds. Owner only.
    function setWindow(uint32 window, bool allowed) external;

    /// @notice Sets how long after its commit a call can be revealed. Owner only.
    /// @dev Applies to calls already committed: a call's deadline is `committedAt + revealTimeout`.
    function setRevealTimeout(uint32 newRevealTimeout) external;

    /// @notice Sets the number of votes a round needs before consensus can hold. Owner only.
    function setConsensusQuorum(uint32 newConsensusQuorum) external;

    /// @notice Sets the leading side's share (basis points) that makes consensus. Owner only.
    function setThresholdBps(uint16 newThresholdBps) external;

    /// @notice The stake token (USDG).
    function usdg() external view returns (address);

    /// @notice The price oracle.
    function oracle() external view returns (address);

    /// @notice The stake needed to commit and kept while calls are open; the unit of score weight.
    function minStake() external view returns (uint256);

    /// @notice Seconds after its commit during which a call can be revealed.
    function revealTimeout() external view returns (uint32);

    /// @notice Votes a round needs before consensus can hold.
    function consensusQuorum() external view returns (uint32);

    /// @notice The leading side's share, in basis points, that makes consensus.
    function thresholdBps() external view returns (uint16);

    /// @notice Whether calls over `window` seconds are allowed.
    function windowAllowed(uint32 window) external view returns (bool);

    /// @notice The commitment `agent` must submit for this call on this chain and ledger.
    function computeCommitment(
        address agent,
        address asset,
        uint32 window,
        Direction direction,
        uint16 confidenceBps,
        bytes32 salt
    ) external view returns (bytes32);

    /// @notice `hits² × (stake / minStake) / (hits + misses + 1)` with 18 decimals, rounded down once.
    function computeScore(uint256 hits, uint256 misses, uint256 stake) external view returns (uint256);

    /// @notice `computeScore` of the agent's current record and stake.
    function score(address agent) external view returns (uint256);

    /// @notice The agent's full record.
    function record(address agent) external view returns (AgentRecord memory);

    /// @notice Everything stored about call `callId` (all zero for an unknown id).
    function getCall(uint256 callId) external view returns (CallView memory);

    /// @notice Tallies of round `(asset, window, bucket)` and the side it last announced (its first
    /// consensus, or the latest flip since; `None` before the first announcement).
    function round(
        address asset,
        uint32 window,
        uint256 bucket
    ) external view returns (uint256 upWeight, uint256 downWeight, uint32 voters, Direction lastConsensus);

    /// @notice The round a call on `asset` over `window` revealed now would land in, and the
    /// direction consensus holds in it now under the current quorum and threshold (or `None`).
    function consensus(
        address asset,
        uint32 window
    )
        external
        view
        returns (uint256 bucket, uint256 upWeight, uint256 downWeight, uint32 voters, Direction direction);

    /// @notice Number of entries in the consensus log.
    function consensusCount() external view returns (uint256);

    /// @notice Entry `index` of the consensus log: the same values its `Consensus` event carried.
    /// @dev `direction` and `strengthBps` are not stored but derived from the tallies (the
    /// announced side is the strictly larger one), so later parameter changes do not alter them.
    function consensusAt(uint256 index) external view returns (ConsensusRecord memory);
}
