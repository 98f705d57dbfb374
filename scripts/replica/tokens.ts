import { getCreate2Address, id, keccak256, type Signer } from "ethers";
import {
  MockDecimalsToken__factory,
  MockStockFactory__factory,
  MockStockToken__factory,
  MockUSDG__factory,
  ReplicaDeployer__factory,
  type MockStockToken,
  type MockUSDG,
} from "../../typechain-types";
import type { StockSpec } from "./stocks";

/**
 * Tokens are deployed with CREATE2 so that each pool's token order is a choice, not an accident of
 * the deployer's nonce: a salt is searched (a few keccak hashes on average) until the stock's address
 * sorts above USDG's (USDG is token0, as on Robinhood Chain) or below it, as its spec asks. The
 * search is deterministic, so the same deployer gets the same addresses every time. Stock tokens come
 * from `MockStockFactory`, whose `Deployed` events list them as the chain's stock factory does.
 */
export async function deployTokens(
  signer: Signer,
  specs: readonly StockSpec[],
  usdgDecimals = 6,
): Promise<{ usdg: MockUSDG; stocks: MockStockToken[]; stockFactory: string }> {
  const deployer = await new ReplicaDeployer__factory(signer).deploy();
  await deployer.waitForDeployment();
  const factory = await new MockStockFactory__factory(signer).deploy();
  await factory.waitForDeployment();

  // MockUSDG has 6 decimals; another count gets the same open-mint ERC-20 with those decimals.
  const usdgInit =
    usdgDecimals === 6
      ? (await new MockUSDG__factory().getDeployTransaction()).data
      : (await new MockDecimalsToken__factory().getDeployTransaction("USDG", usdgDecimals)).data;
  const usdgAddress = await create2(deployer, id("USDG"), usdgInit);
  const usdg = MockUSDG__factory.connect(usdgAddress, signer);

  const owner = await signer.getAddress();
  const stocks: MockStockToken[] = [];
  for (const spec of specs) {
    const init = (await new MockStockToken__factory().getDeployTransaction(spec.name, spec.symbol, owner))
      .data;
    const salt = await mineSalt(factory, spec.symbol, init, (address) =>
      spec.usdgIsToken0 ? BigInt(address) > BigInt(usdgAddress) : BigInt(address) < BigInt(usdgAddress),
    );
    stocks.push(MockStockToken__factory.connect(await create2(factory, salt, init), signer));
  }
  return { usdg, stocks, stockFactory: await factory.getAddress() };
}

/** ReplicaDeployer and MockStockFactory both deploy with `deploy(salt, initCode)`. */
interface Create2Deployer {
  getAddress(): Promise<string>;
  deploy(salt: string, initCode: string): Promise<{ wait(): Promise<unknown> }>;
}

async function mineSalt(
  deployer: Create2Deployer,
  label: string,
  initCode: string,
  accept: (address: string) => boolean,
): Promise<string> {
  const from = await deployer.getAddress();
  const codeHash = keccak256(initCode);
  for (let n = 0; n < 10_000; n++) {
    const salt = id(`${label}#${n}`);
    if (accept(getCreate2Address(from, salt, codeHash))) return salt;
  }
  throw new Error(`no CREATE2 salt found for ${label}`);
}

async function create2(deployer: Create2Deployer, salt: string, initCode: string): Promise<string> {
  const address = getCreate2Address(await deployer.getAddress(), salt, keccak256(initCode));
  await (await deployer.deploy(salt, initCode)).wait();
  return address;
}
