import type { Kysely } from "kysely";
import { MerkleLogStore } from "../../store/merkle/log-store";
import type { Database } from "../../store/schema";

const log = new MerkleLogStore();

/**
 * Remembers a view computed from the store until the log grows: every record is appended to
 * the log, so an unchanged log size means unchanged inputs. Keeps the referee's 2,048 monkeys
 * per agent from being recomputed on every page view.
 */
export class LogSizeMemo<T> {
  private readonly entries = new Map<string, { size: number; value: T }>();

  constructor(private readonly maxEntries = 16) {}

  async get(db: Kysely<Database>, key: string, compute: () => Promise<T>): Promise<T> {
    const size = await log.size(db);
    const hit = this.entries.get(key);
    if (hit && hit.size === size) return hit.value;
    const value = await compute();
    this.entries.delete(key);
    this.entries.set(key, { size, value });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}
