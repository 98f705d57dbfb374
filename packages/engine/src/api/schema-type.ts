/**
 * The TypeScript type of the JSON a route's response schema describes, for the subset of JSON
 * Schema the routes write (`type` or a list of types, `const`, `enum`, `anyOf`, `properties`
 * with `required`, `additionalProperties`, `items`): a reader of a view takes its type from the
 * schema that documents and serializes it, not from a copy. Schemas must be declared `as const`.
 */
export type FromSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? FromSchema<A>
      : S extends { readonly type: readonly (infer T)[] }
        ? OfType<T, S>
        : S extends { readonly type: infer T }
          ? OfType<T, S>
          : unknown;

type OfType<T, S> = T extends "string"
  ? string
  : T extends "integer" | "number"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? S extends { readonly items: infer I }
            ? readonly FromSchema<I>[]
            : readonly unknown[]
          : T extends "object"
            ? S extends { readonly properties: infer P }
              ? ObjectOf<P, S extends { readonly required: readonly (infer R)[] } ? R : never>
              : S extends { readonly additionalProperties: infer V extends object }
                ? Readonly<Record<string, FromSchema<V>>>
                : Readonly<Record<string, unknown>>
            : unknown;

type ObjectOf<P, R> = Flat<
  { readonly [K in keyof P & R]: FromSchema<P[K]> } & {
    readonly [K in Exclude<keyof P, R>]?: FromSchema<P[K]>;
  }
>;

type Flat<T> = { [K in keyof T]: T[K] };
