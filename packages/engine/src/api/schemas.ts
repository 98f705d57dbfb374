import { ID_PATTERN, RECORD_FIELDS, RECORD_TYPE_NAMES, type FieldSpec } from "@augur/records";

/** JSON Schema fragments shared by the routes (and, through them, the OpenAPI document). */
export const idSchema = { type: "string", pattern: ID_PATTERN, maxLength: 64 } as const;
export const hex32Schema = { type: "string", pattern: "^0x[0-9a-fA-F]{64}$" } as const;
export const addressSchema = { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" } as const;
/** A directory's 200 body, `{ <list>: [{ <label>, address }] }` (the asset and creator directories). */
export function directorySchema(list: string, label: string) {
  return {
    type: "object",
    required: [list],
    properties: {
      [list]: {
        type: "array",
        items: {
          type: "object",
          required: [label, "address"],
          properties: { [label]: { type: "string" }, address: addressSchema },
        },
      },
    },
  } as const;
}
export const signatureSchema = { type: "string", pattern: "^0x[0-9a-fA-F]{130}$" } as const;
export const uintSchema = { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;

export const errorBody = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" } },
    },
  },
} as const;

/** `/agents/:id/…?season_id=…`: one agent of one season (route params and query). */
export const agentInSeason = {
  params: { type: "object", required: ["id"], properties: { id: idSchema } },
  querystring: {
    type: "object",
    additionalProperties: false,
    required: ["season_id"],
    properties: { season_id: idSchema },
  },
} as const;

export function pageQuery(defaultLimit: number, maxLimit: number) {
  return {
    limit: { type: "integer", minimum: 1, maximum: maxLimit, default: defaultLimit },
    offset: { type: "integer", minimum: 0, maximum: 1_000_000, default: 0 },
  } as const;
}

/** The JSON Schema of one field of a signed record message (documentation and validation). */
function fieldSchema(spec: FieldSpec): Record<string, unknown> {
  const base = { description: spec.description };
  switch (spec.type) {
    case "string":
      return spec.enum
        ? { ...base, type: "string", enum: spec.enum }
        : {
            ...base,
            type: "string",
            maxLength: spec.maxLength,
            ...(spec.pattern ? { pattern: spec.pattern } : {}),
          };
    case "address":
      return { ...base, ...addressSchema };
    case "bytes32":
      return { ...base, ...hex32Schema };
    case "uint16":
    case "uint64":
      return { ...base, type: "integer", minimum: 0, maximum: spec.maximum ?? Number.MAX_SAFE_INTEGER };
    case "uint256":
      return { ...base, type: "string", pattern: "^(0|[1-9][0-9]{0,77})$" };
    case "int256":
      return { ...base, type: "string", pattern: "^(0|-?[1-9][0-9]{0,76})$" };
  }
}

/** One schema per record type's message, for the OpenAPI document's components. */
export function messageSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    RECORD_TYPE_NAMES.map((type) => [
      `${type}Message`,
      {
        type: "object",
        additionalProperties: false,
        required: RECORD_FIELDS[type].map((f) => f.name),
        properties: Object.fromEntries(RECORD_FIELDS[type].map((f) => [f.name, fieldSchema(f)])),
      },
    ]),
  );
}
