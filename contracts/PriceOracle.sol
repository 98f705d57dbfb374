// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable, Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {Checkpoints} from "@openzeppelin/contracts/utils/structs/Checkpoints.sol";
import {IUniswapV3Pool} from "@uniswap/v3-core-0.8/contracts/interfaces/IUniswapV3Pool.sol";

import {IPriceOracle} from "./interfaces/IPriceOracle.sol";
import {TwapMath} from "./libraries/TwapMath.sol";

/// @title PriceOracle
/// @notice USDG prices of stock tokens: the TWAP of each asset's Uniswap v3 pool over `twapWindow`
/// seconds, now or ending at any past moment the pool's observation buffer still covers; for an
/// asset with no pool, the checkpoint history of prices pushed by its updater.
/// @dev One owner (Ownable2Step: a mistyped new owner cannot take the oracle, the transfer must be
/// accepted) sets pools, updaters, the staleness limit and the span a pool must cover. Updaters are
/// per asset, not a role. A pool, once set, always wins (seed 001): no function removes or replaces
/// it, so an asset never goes back to pushed prices and never changes pool.
contract PriceOracle is IPriceOracle, Ownable2Step {
    using Checkpoints for Checkpoints.Trace208;

    /// @notice What `setPool` checked and read once, so a price read is one storage slot.
    struct PoolConfig {
        address pool;
        bool assetIsToken0;
        uint8 assetDecimals;
        uint8 usdgDecimals;
        // 18 + assetDecimals - usdgDecimals, in [0, TwapMath.MAX_SCALE_EXPONENT].
        uint8 scaleExponent;
    }

    // The revert data of Uniswap's observe() when the buffer does not reach back far enough
    // (Oracle.sol's `require(..., 'OLD')`) and when the pool has no observation (`require(..., 'I')`).
    bytes32 private constant _OLD = keccak256(abi.encodeWithSignature("Error(string)", "OLD"));
    bytes32 private constant _NO_OBSERVATION = keccak256(abi.encodeWithSignature("Error(string)", "I"));

    /// @notice Staleness allowed for pushed prices until the owner sets another limit.
    uint32 public constant DEFAULT_MAX_STALENESS = 1 hours;

    /// @inheritdoc IPriceOracle
    address public immutable usdg;
    /// @inheritdoc IPriceOracle
    uint32 public immutable twapWindow;
    /// @inheritdoc IPriceOracle
    uint32 public maxStaleness;
    /// @inheritdoc IPriceOracle
    uint32 public requiredSpan;
    /// @inheritdoc IPriceOracle
    mapping(address asset => address updater) public updaterOf;

    mapping(address asset => PoolConfig) internal _pools;
    // Key: the push's block timestamp. Value: price18 << 48 | timestamp. Checkpoints look values up by
    // key but do not return the key found, and the staleness check needs it: the value carries it.
    mapping(address asset => Checkpoints.Trace208) internal _pushed;

    /// @param usdg_ The USDG token every price is quoted in.
    /// @param twapWindow_ The TWAP window in seconds (300 at launch), in [1, 65534] so that a pool's
    /// cardinality (a uint16) can reach `twapWindow + 1`.
    /// @param admin The owner.
    constructor(address usdg_, uint32 twapWindow_, address admin) Ownable(admin) {
        if (usdg_ == address(0)) revert PriceOracleZeroUsdg();
        if (twapWindow_ == 0 || twapWindow_ >= type(uint16).max)
            revert PriceOracleInvalidTwapWindow(twapWindow_);
        usdg = usdg_;
        twapWindow = twapWindow_;
        maxStaleness = DEFAULT_MAX_STALENESS;
        emit MaxStalenessSet(0, DEFAULT_MAX_STALENESS);
        requiredSpan = twapWindow_;
        emit RequiredSpanSet(0, twapWindow_);
    }

    // ---------------------------------------------------------------- reads

    /// @inheritdoc IPriceOracle
    function price(address asset) external view returns (uint256) {
        PoolConfig memory config = _pools[asset];
        if (config.pool != address(0)) return _poolPrice(asset, config, 0, block.timestamp);
        return _pushedPrice(asset, block.timestamp);
    }

    /// @inheritdoc IPriceOracle
    function priceAt(address asset, uint256 timestamp) external view returns (uint256) {
        if (timestamp > block.timestamp) revert PriceOracleFutureTimestamp(timestamp, block.timestamp);
        PoolConfig memory config = _pools[asset];
        if (config.pool == address(0)) return _pushedPrice(asset, timestamp);
        uint256 secondsAgo = block.timestamp - timestamp;
        // observe() takes uint32 ages: a window ending more than ~136 years ago is never covered.
        if (secondsAgo + twapWindow > type(uint32).max) {
            revert PriceOracleWindowNotCovered(asset, timestamp, _oldestCovered(config.pool));
        }
        return _poolPrice(asset, config, uint32(secondsAgo), timestamp);
    }

    /// @inheritdoc IPriceOracle
    function poolOf(
        address asset
    ) external view returns (address pool, bool assetIsToken0, uint8 assetDecimals, uint8 usdgDecimals) {
        PoolConfig memory config = _pools[asset];
        return (config.pool, config.assetIsToken0, config.assetDecimals, config.usdgDecimals);
    }

    /// @inheritdoc IPriceOracle
    function coverage(
        address asset
    ) external view returns (uint256 span, uint256 guaranteed, uint256 needed) {
        address pool = _pools[asset].pool;
        if (pool == address(0)) revert PriceOracleNoPool(asset);
        (uint256 oldest, uint16 cardinality) = _oldestObservation(pool);
        // A set pool has cardinality > requiredSpan >= 1 (setPool checked it, and it never shrinks).
        return (block.timestamp - oldest, uint256(cardinality) - 1, requiredSpan);
    }

    // ---------------------------------------------------------------- admin

    /// @inheritdoc IPriceOracle
    function setPool(address asset, address pool) external onlyOwner {
        address current = _pools[asset].pool;
        if (current != address(0)) revert PriceOracleHasPool(asset, current);
        IUniswapV3Pool uniswapPool = IUniswapV3Pool(pool);
        address token0 = uniswapPool.token0();
        address token1 = uniswapPool.token1();
        bool assetIsToken0 = token0 == asset && token1 == usdg;
        if (!assetIsToken0 && !(token0 == usdg && token1 == asset)) {
            revert PriceOracleWrongPool(asset, pool, token0, token1);
        }
        // The ring in use now, not `observationCardinalityNext`: the added slots join the ring only
        // when the write index next reaches its end, and until then the pool keeps overwriting the
        // old ring. A full ring of C observations written at most one per second (Oracle.write skips
        // a second write at the same timestamp) reaches at least C - 1 seconds back.
        (, , , uint16 cardinality, , , ) = uniswapPool.slot0();
        uint256 needed = uint256(requiredSpan) + 1;
        if (cardinality < needed) revert PriceOracleCardinalityTooLow(pool, cardinality, needed);
        uint8 assetDecimals = IERC20Metadata(asset).decimals();
        uint8 usdgDecimals = IERC20Metadata(usdg).decimals();
        (uint8 exponent, bool supported) = TwapMath.scaleExponent(assetDecimals, usdgDecimals);
        if (!supported) revert PriceOracleUnsupportedDecimals(asset, assetDecimals, usdgDecimals);

        _pools[asset] = PoolConfig(pool, assetIsToken0, assetDecimals, usdgDecimals, exponent);
        emit PoolSet(asset, pool, address(0), assetIsToken0, assetDecimals, usdgDecimals);
    }

    /// @inheritdoc IPriceOracle
    function setRequiredSpan(uint32 newRequiredSpan) external onlyOwner {
        // A span the largest cardinality (a uint16) cannot cover would refuse every pool.
        if (newRequiredSpan < twapWindow || newRequiredSpan >= type(uint16).max) {
            revert PriceOracleInvalidRequiredSpan(newRequiredSpan, twapWindow, type(uint16).max - 1);
        }
        emit RequiredSpanSet(requiredSpan, newRequiredSpan);
        requiredSpan = newRequiredSpan;
    }

    /// @inheritdoc IPriceOracle
    function setUpdater(address asset, address updater) external onlyOwner {
        emit UpdaterSet(asset, updaterOf[asset], updater);
        updaterOf[asset] = updater;
    }

    /// @inheritdoc IPriceOracle
    function setMaxStaleness(uint32 newMaxStaleness) external onlyOwner {
        emit MaxStalenessSet(maxStaleness, newMaxStaleness);
        maxStaleness = newMaxStaleness;
    }

    // ---------------------------------------------------------------- pushes

    /// @inheritdoc IPriceOracle
    function pushPrice(address asset, uint256 price18) external {
        address pool = _pools[asset].pool;
        if (pool != address(0)) revert PriceOracleHasPool(asset, pool);
        if (msg.sender != updaterOf[asset]) revert PriceOracleUnauthorizedUpdater(asset, msg.sender);
        if (price18 == 0 || price18 > type(uint160).max) revert PriceOracleInvalidPrice(asset, price18);
        // uint48 seconds last for millions of years; Checkpoints requires keys not to decrease,
        // which block timestamps guarantee, and replaces the value of an equal key.
        uint48 timestamp = uint48(block.timestamp);
        _pushed[asset].push(timestamp, uint208((price18 << 48) | timestamp));
        emit PricePushed(asset, msg.sender, price18, timestamp);
    }

    // ---------------------------------------------------------------- internals

    /// @dev The TWAP of the window ending `secondsAgo` seconds before now (`timestamp`, for errors).
    function _poolPrice(
        address asset,
        PoolConfig memory config,
        uint32 secondsAgo,
        uint256 timestamp
    ) internal view returns (uint256) {
        uint32[] memory secondsAgos = new uint32[](2);
        secondsAgos[0] = secondsAgo + twapWindow;
        secondsAgos[1] = secondsAgo;
        try IUniswapV3Pool(config.pool).observe(secondsAgos) returns (
            int56[] memory tickCumulatives,
            uint160[] memory
        ) {
            int24 tick = TwapMath.meanTick(tickCumulatives[0], tickCumulatives[1], twapWindow);
            return TwapMath.priceAtTick(tick, config.assetIsToken0, config.scaleExponent);
        } catch (bytes memory reason) {
            // The pool says the buffer does not reach the window's start ("OLD"), or holds no
            // observation at all ("I"). Anything else (no data: typically out of gas) must not pass
            // for an uncovered window, which callers may act on (the ledger voids on it).
            bytes32 said = keccak256(reason);
            if (said != _OLD && said != _NO_OBSERVATION) revert PriceOracleObserveFailed(config.pool);
            revert PriceOracleWindowNotCovered(asset, timestamp, _oldestCovered(config.pool));
        }
    }

    /// @dev The latest pushed price at or before `timestamp`, if not older than `maxStaleness`.
    function _pushedPrice(address asset, uint256 timestamp) internal view returns (uint256) {
        Checkpoints.Trace208 storage history = _pushed[asset];
        if (history.length() == 0) revert PriceOracleNoSource(asset);
        // Pushed keys are block timestamps, so `timestamp` (at most now) fits in uint48.
        uint256 packed = history.upperLookupRecent(uint48(timestamp));
        // Every stored value is non-zero (price18 > 0), so zero means nothing was pushed by then.
        if (packed == 0) revert PriceOracleWindowNotCovered(asset, timestamp, history.at(0)._key);
        uint256 pricedAt = uint48(packed);
        if (timestamp - pricedAt > maxStaleness) {
            revert PriceOracleStalePrice(asset, pricedAt, timestamp, maxStaleness);
        }
        return packed >> 48;
    }

    /// @dev The earliest window end the pool can answer for: its oldest observation plus the window
    /// (0 for a pool with no observation). Only called on error paths.
    function _oldestCovered(address pool) internal view returns (uint256) {
        (uint256 oldest, uint16 cardinality) = _oldestObservation(pool);
        if (cardinality == 0) return 0;
        return oldest + twapWindow;
    }

    /// @dev The timestamp of the pool's oldest observation, and the size of its ring.
    function _oldestObservation(address pool) internal view returns (uint256 oldest, uint16 cardinality) {
        IUniswapV3Pool uniswapPool = IUniswapV3Pool(pool);
        uint16 index;
        (, , index, cardinality, , , ) = uniswapPool.slot0();
        if (cardinality == 0) return (0, 0);
        // The slot after the newest is the oldest once the ring has wrapped; before that (a young
        // pool, or a ring that just grew) it is not yet initialized and slot 0 is the oldest.
        (uint32 timestamp, , , bool initialized) = uniswapPool.observations(
            (uint256(index) + 1) % cardinality
        );
        if (!initialized) (timestamp, , , ) = uniswapPool.observations(0);
        oldest = timestamp;
    }
}
