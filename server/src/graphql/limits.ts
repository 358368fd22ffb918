/**
 * Query limits (graphql-armor): deep nesting, expensive selections and alias fan-out are refused before execution.
 * The cost rule multiplies a selection by a literal `first`, so one full page the client fetches (first: 100, about
 * 30 fields of a user or an entity) costs some 12,000: 20,000 lets that through and refuses a handful of them
 * aliased in one request. `first` given as a variable is not multiplied, but the services cap it at 100 rows.
 */
export const LIMITS = { depth: 10, cost: 20_000, aliases: 15 } as const;
