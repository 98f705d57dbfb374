/** The two backends of the one query layer. */
export type DialectName = "sqlite" | "postgres";
