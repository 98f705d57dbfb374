import { expect } from "chai";
import { ChromiumMissingError, launchChromium } from "../../test-support/site/browser";

describe("launchChromium", () => {
  it("fails with install instructions (never skips) when no Chromium is at the path", async () => {
    const missing = "/nonexistent/chromium-for-augur-test";
    const error = await launchChromium(missing).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(ChromiumMissingError);
    expect((error as Error).message)
      .to.contain(missing)
      .and.to.contain("apt-get install -y chromium");
  });
});
