// The API keys page's address and its query parameters, shared by its action (server) and its
// forms and links (browser).

export const API_KEYS_PATH = "/admin/api-keys";
/** `?revoke=<id>`: the page asks to confirm revoking that key (the step without JavaScript). */
export const CONFIRM_REVOKE_PARAM = "revoke";
/** `?notice=revoked`: the redirect after a key was revoked. */
export const REVOKED_NOTICE_HREF = `${API_KEYS_PATH}?notice=revoked`;
