// Staff-account URLs shared by the server (links it hands out) and the pages.

export const STAFF_PATH = "/admin/staff";
export const SET_PASSWORD_PREFIX = "/admin/set-password/";

/** The page a set-password link opens (public: the person has no password yet). */
export function setPasswordPath(token: string): string {
  return `${SET_PASSWORD_PREFIX}${token}`;
}

/** Where a used link leads: the login page, which then says the password is set. */
export const PASSWORD_SET_PARAM = "password-set";
