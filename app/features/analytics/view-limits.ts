// What one client address can add to the analytics in a day (issue 22; view-limits.server.ts applies
// them). Here, apart from the server code, because the privacy policy states them.

/** Visitor ids one address (an IPv6 /64) can bring in a UTC day, per instance. */
export const MAX_VISITORS_PER_ADDRESS = 20;
/** Views of one address stored in a UTC day, per instance. */
export const MAX_VIEWS_PER_ADDRESS_PER_DAY = 1_000;
