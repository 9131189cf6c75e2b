// People's data rights (issue 13): what the page and the server share.

/** The reason an erasure records when staff give none. */
export const DEFAULT_ERASURE_REASON = "Erasure request";
