// The back office's fixed addresses (routes.ts declares them): the sign-in, the post-login home and
// the lead list link here from several features, so the constants live outside any one of them.

export const DASHBOARD_PATH = "/admin/dashboard";
export const LOGIN_PATH = "/admin/login";

/** Your own sessions (issue 13). */
export const ACCOUNT_PATH = "/admin/account";
/** People's data rights (issue 13): subject access and erasure by email. */
export const PEOPLE_PATH = "/admin/people";

/** The leads by status (issue 35), with the list's query parameters. */
export const BOARD_PATH = "/admin/leads/board";
