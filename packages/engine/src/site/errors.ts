import { AugurError } from "@augur/scorer";

/** A page that cannot be shown for a reason the visitor caused (bad id, bad page): a 4xx page. */
export class SitePageError extends AugurError {
  override readonly name = "SitePageError";
  constructor(
    readonly status: number,
    code: string,
    message: string,
  ) {
    super(code, message, { status });
  }
}
