/** The statistics the site quotes (SPEC sections 2 and 9); one source of truth for every page. */
export const stats = [
  {
    value: "9.2%",
    label: "of annual revenue is lost to poor contract management",
    source: "World Commerce & Contracting research",
  },
  {
    value: "71%",
    label: "of companies cannot locate at least 10% of their contracts",
    source: "Aberdeen Group survey of contract management practice",
  },
  {
    value: "90%",
    label: "of people find contract legal language confusing",
    source: "World Commerce & Contracting research",
  },
] as const;

/** The headline of the Business Impact list on /problem. */
export const valueLeakage = {
  value: "up to 40%",
  label: "of a contract's value can leak away after signature",
} as const;
