// Staff-account messages the pages show as well as the server sends (client-safe).

export const LINK_GONE_MESSAGE =
  "This link has expired or has already been used. Ask an admin for a new one.";
export const PASSWORDS_DIFFER = "The two passwords differ.";
