// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IPriceOracle
/// @notice Time-weighted prices of Robinhood Chain stock tokens in USDG, read from Uniswap v3
/// pools (or, for an asset with no pool, from a named updater's pushed checkpoints).
/// @dev Every price is USDG per whole token with 18 decimals, whatever the tokens' own decimals.
/// Invariants:
/// - An asset with a pool is priced from that pool only, for good: no function removes or replaces
///   a pool once set, and pushes for it are refused.
/// - `priceAt(asset, t)` depends only on the pool's accumulator values at `t - twapWindow` and `t`,
///   so it returns the same number whenever it is called, as long as the buffer still covers it.
/// - Every window and deadline is measured with `block.timestamp` (on Arbitrum chains
///   `block.number` is the L1 height).
interface IPriceOracle {
    /// @notice The asset has neither a pool nor any pushed price.
    /// @param asset The stock token asked about.
    error PriceOracleNoSource(address asset);
    /// @notice The pool's observation buffer (or the push history) does not cover the window
    /// `[timestamp - twapWindow, timestamp]`.
    /// @param asset The stock token asked about.
    /// @param timestamp The end of the window asked for.
    /// @param oldestCovered The earliest window end the source can answer for now: the pool's oldest
    /// observation plus `twapWindow`, or the first pushed price's timestamp (0 when unknown).
    error PriceOracleWindowNotCovered(address asset, uint256 timestamp, uint256 oldestCovered);
    /// @notice The pool's `observe` reverted without a reason (e.g. out of gas): not a statement about
    /// the window's coverage.
    /// @param pool The pool that failed.
    error PriceOracleObserveFailed(address pool);
    /// @notice `priceAt` was asked about a moment after the current block.
    /// @param timestamp The moment asked about.
    /// @param nowTimestamp The current block's timestamp.
    error PriceOracleFutureTimestamp(uint256 timestamp, uint256 nowTimestamp);
    /// @notice The latest pushed price at or before `timestamp` is older than the allowed staleness.
    /// @param asset The stock token asked about.
    /// @param pricedAt When the latest usable price was pushed.
    /// @param timestamp The moment asked about.
    /// @param maxStaleness The largest allowed `timestamp - pricedAt`, in seconds.
    error PriceOracleStalePrice(address asset, uint256 pricedAt, uint256 timestamp, uint256 maxStaleness);
    /// @notice The constructor was given a window of 0 seconds, or one no pool's observation
    /// cardinality (a uint16) could cover.
    /// @param twapWindow The rejected window, in seconds.
    error PriceOracleInvalidTwapWindow(uint32 twapWindow);
    /// @notice The constructor was given the zero address for USDG.
    error PriceOracleZeroUsdg();
    /// @notice `setPool` was given a pool that is not the pair (`asset`, USDG).
    /// @param asset The stock token.
    /// @param pool The rejected pool.
    /// @param token0 The pool's token0.
    /// @param token1 The pool's token1.
    error PriceOracleWrongPool(address asset, address pool, address token0, address token1);
    /// @notice The pool's observation buffer is too small to always cover `requiredSpan` seconds.
    /// @dev A pool writes at most one observation per second, so `requiredSpan + 1` observations always
    /// reach back at least `requiredSpan` seconds.
    /// @param pool The rejected pool.
    /// @param cardinality The pool's current observation cardinality.
    /// @param required The smallest accepted cardinality, `requiredSpan + 1`.
    error PriceOracleCardinalityTooLow(address pool, uint16 cardinality, uint256 required);
    /// @notice The tokens' decimals put the 18-decimal price out of the range the math supports:
    /// `18 + assetDecimals - usdgDecimals` must lie in [0, 38].
    /// @param asset The stock token.
    /// @param assetDecimals The asset's `decimals()`.
    /// @param usdgDecimals USDG's `decimals()`.
    error PriceOracleUnsupportedDecimals(address asset, uint8 assetDecimals, uint8 usdgDecimals);
    /// @notice `coverage` was asked about an asset that has no pool.
    /// @param asset The stock token.
    error PriceOracleNoPool(address asset);
    /// @notice A price was pushed, or a pool set, for an asset that already has a pool: the pool
    /// always wins, and is never replaced.
    /// @param asset The stock token.
    /// @param pool The asset's pool.
    error PriceOracleHasPool(address asset, address pool);
    /// @notice `setRequiredSpan` was given a span below the TWAP window, or one no pool's observation
    /// cardinality (a uint16) could cover.
    /// @param requiredSpan The rejected span, in seconds.
    /// @param min The smallest accepted span, `twapWindow`.
    /// @param max The largest accepted span, 65534.
    error PriceOracleInvalidRequiredSpan(uint32 requiredSpan, uint256 min, uint256 max);
    /// @notice A price was pushed by an account that is not the asset's updater.
    /// @param asset The stock token.
    /// @param caller The account that tried to push.
    error PriceOracleUnauthorizedUpdater(address asset, address caller);
    /// @notice A pushed price is zero or above `type(uint160).max`.
    /// @param asset The stock token.
    /// @param price18 The rejected price.
    error PriceOracleInvalidPrice(address asset, uint256 price18);

    /// @notice `asset` is now priced from `pool`, for good.
    /// @param asset The stock token.
    /// @param pool The pool.
    /// @param previousPool Always zero: a pool is never replaced. Kept so that the event's signature,
    /// which indexers match, stays the same.
    /// @param assetIsToken0 Whether the asset is the pool's token0.
    /// @param assetDecimals The asset's `decimals()`, read when the pool was set.
    /// @param usdgDecimals USDG's `decimals()`, read when the pool was set.
    event PoolSet(
        address indexed asset,
        address indexed pool,
        address previousPool,
        bool assetIsToken0,
        uint8 assetDecimals,
        uint8 usdgDecimals
    );
    /// @notice `updater` may now push prices for `asset` (zero: nobody may).
    /// @param asset The stock token.
    /// @param previousUpdater The account that could push before.
    /// @param updater The account that can push now.
    event UpdaterSet(address indexed asset, address previousUpdater, address indexed updater);
    /// @notice `updater` pushed `price18` for `asset` at `timestamp`.
    /// @param asset The stock token.
    /// @param updater The account that pushed.
    /// @param price18 USDG per whole token, 18 decimals.
    /// @param timestamp The block timestamp the price is recorded at.
    event PricePushed(address indexed asset, address indexed updater, uint256 price18, uint256 timestamp);
    /// @notice The staleness allowed for pushed prices changed.
    /// @param previousMaxStaleness The former limit, in seconds.
    /// @param maxStaleness The new limit, in seconds.
    event MaxStalenessSet(uint32 previousMaxStaleness, uint32 maxStaleness);
    /// @notice The history a pool must be able to hold, checked by `setPool`, changed.
    /// @param previousRequiredSpan The former span, in seconds.
    /// @param requiredSpan The new span, in seconds.
    event RequiredSpanSet(uint32 previousRequiredSpan, uint32 requiredSpan);

    /// @notice The TWAP price of `asset` over the `twapWindow` seconds ending now.
    /// @param asset The stock token.
    /// @return price18 USDG per whole token, 18 decimals.
    function price(address asset) external view returns (uint256 price18);

    /// @notice The TWAP price of `asset` over the `twapWindow` seconds ending at `timestamp`.
    /// @dev Computed from the pool's tick accumulator whenever it is called, so the answer for a
    /// past moment does not change as the pool trades on, as long as the buffer still covers it.
    /// For a pushed asset: the latest price pushed at or before `timestamp`, if not stale.
    /// @param asset The stock token.
    /// @param timestamp The end of the window, at most the current block's timestamp.
    /// @return price18 USDG per whole token, 18 decimals.
    function priceAt(address asset, uint256 timestamp) external view returns (uint256 price18);

    /// @notice The length in seconds of every TWAP window this oracle computes.
    function twapWindow() external view returns (uint32);

    /// @notice The USDG token every price is quoted in.
    function usdg() external view returns (address);

    /// @notice The largest age, in seconds, of a pushed price that `price`/`priceAt` accept.
    function maxStaleness() external view returns (uint32);

    /// @notice The seconds of history a pool's buffer must always hold for `setPool` to accept it
    /// (`twapWindow` at deployment; in [twapWindow, 65534]).
    /// @dev The oracle does not know the ledger's windows: the owner sets this to what settling
    /// needs, `twapWindow` + the settle grace (docs/price-oracle.md, "Coverage of the window").
    function requiredSpan() external view returns (uint32);

    /// @notice How far back the pool of `asset` reaches, for monitors (PriceOracleNoPool without a pool).
    /// @dev A call whose exit window starts before `block.timestamp - span` can no longer be priced
    /// and is voided when settled.
    /// @param asset The stock token.
    /// @return span Seconds from the pool's oldest observation to now: the history it holds now.
    /// @return guaranteed `observationCardinality - 1`: the fewest seconds the full ring holds
    /// however busy the pool (one observation per second at most).
    /// @return needed `requiredSpan`.
    function coverage(address asset) external view returns (uint256 span, uint256 guaranteed, uint256 needed);

    /// @notice The pool `asset` is priced from, with what `setPool` read from chain.
    /// @param asset The stock token.
    /// @return pool The pool, or zero when the asset has none.
    /// @return assetIsToken0 Whether the asset is the pool's token0.
    /// @return assetDecimals The asset's decimals.
    /// @return usdgDecimals USDG's decimals.
    function poolOf(
        address asset
    ) external view returns (address pool, bool assetIsToken0, uint8 assetDecimals, uint8 usdgDecimals);

    /// @notice The account allowed to push prices for `asset` (zero: nobody).
    /// @param asset The stock token.
    function updaterOf(address asset) external view returns (address);

    /// @notice Prices `asset` from `pool` from now on, for good (owner only, once per asset: an asset
    /// that has a pool reverts with PriceOracleHasPool).
    /// @dev Checks the pool is the (`asset`, USDG) pair and that its observation cardinality (the ring
    /// in use, not `observationCardinalityNext`) is at least `requiredSpan + 1`; reads and stores
    /// both tokens' `decimals()`.
    /// @param asset The stock token.
    /// @param pool A Uniswap v3 pool of `asset` against USDG.
    function setPool(address asset, address pool) external;

    /// @notice Sets the seconds of history a pool must always hold for `setPool` (owner only).
    /// Pools already set are kept whatever their cardinality; `coverage` shows how they compare.
    /// @param newRequiredSpan The new span, in [twapWindow, 65534] seconds.
    function setRequiredSpan(uint32 newRequiredSpan) external;

    /// @notice Names the account that may push prices for `asset` (owner only; zero revokes).
    /// @param asset The stock token.
    /// @param updater The new updater.
    function setUpdater(address asset, address updater) external;

    /// @notice Sets the largest accepted age of a pushed price (owner only).
    /// @param newMaxStaleness The new limit, in seconds.
    function setMaxStaleness(uint32 newMaxStaleness) external;

    /// @notice Records `price18` for `asset` at the current block timestamp (the asset's updater
    /// only, and only while the asset has no pool). A second push in the same second replaces the first.
    /// @param asset The stock token.
    /// @param price18 USDG per whole token, 18 decimals, in (0, type(uint160).max].
    function pushPrice(address asset, uint256 price18) external;
}
