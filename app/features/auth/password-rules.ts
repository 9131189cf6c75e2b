// The account rules the browser shows (input attributes, hints) and the server enforces
// (users.server.ts). No node:crypto here, so client code may import it.

/** Longer than any passphrase a person types; stops a megabyte "password" from costing CPU. */
export const MAX_PASSWORD_LENGTH = 256;
export const MIN_PASSWORD_LENGTH = 12;

export const USERNAME_PATTERN = /^[A-Za-z0-9._@-]{3,64}$/;
/** The same rule for an <input pattern> (the browser anchors it itself). */
export const USERNAME_INPUT_PATTERN = "[A-Za-z0-9._@\\-]{3,64}";
export const USERNAME_RULE = "3 to 64 letters, digits or . _ @ - characters";
