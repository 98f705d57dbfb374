import { expect } from "chai";
import { modeBanner } from "./mode-banner";
import type { ModeView } from "../api/routes/modes";

const active: ModeView = {
  mode: "active",
  since: null,
  declared: null,
  cause: null,
  seal: null,
  today: "2027-01-20",
  history: [],
  notices: [],
  finalNotice: null,
  lpLockAlarm: null,
} as unknown as ModeView;

describe("every page's banner", () => {
  it("is empty while the system is active with nothing pending and the LP timelock in place", () => {
    expect(String(modeBanner(active)).trim()).to.equal("");
  });

  it("raises the LP timelock alarm on every page, with its first day and reason (escaped)", () => {
    const view = { ...active, lpLockAlarm: { since: "2027-01-17", reason: "held by <script>" } } as ModeView;
    const banner = String(modeBanner(view)).replace(/\s+/g, " ");
    expect(banner).to.contain('id="lp-lock-banner" role="alert"');
    expect(banner).to.contain("LP timelock alarm since 2027-01-17</strong>: held by &lt;script&gt;.");
    expect(banner).to.contain('href="/stewardship#lp-lock"');
  });
});
