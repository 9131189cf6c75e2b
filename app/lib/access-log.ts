// The staff access log's vocabulary, shared by the server (access-log.server.ts) and the page that
// shows it: what each action is called, and the groups the page filters by.

export const ACCESS_ACTIONS = {
  sign_in: "Signed in",
  sign_in_failed: "Failed sign-in",
  session_ended: "Ended a session",
  sessions_ended: "Ended all other sessions",
  export: "Exported leads",
  lead_erased: "Erased a lead",
  person_exported: "Exported a person's data",
  person_erased: "Erased a person",
  staff_created: "Added a staff account",
  staff_disabled: "Disabled a staff account",
  staff_enabled: "Enabled a staff account",
  staff_password_reset: "Set a staff password",
  staff_link_issued: "Created a set-password link",
  staff_link_used: "Chose a password with a link",
  staff_signed_out: "Signed a colleague out everywhere",
  staff_two_factor_reset: "Reset a colleague's two-factor sign-in",
  staff_role_changed: "Changed a staff role",
  two_factor_enabled: "Turned on two-factor sign-in",
  two_factor_disabled: "Turned off two-factor sign-in",
  two_factor_codes_renewed: "Made new recovery codes",
  two_factor_recovery_used: "Signed in with a recovery code",
  two_factor_codes_warned: "5 wrong two-factor codes in a day from untrusted browsers",
  two_factor_codes_closed: "Code step closed for the day: 20 wrong two-factor codes",
  staff_code_step_reopened: "Reopened a colleague's code step",
  lead_added: "Added a lead by hand",
  leads_imported: "Imported leads",
  lead_import_undone: "Undid an import",
  post_published: "Published a post",
  post_scheduled: "Scheduled a post",
  post_unpublished: "Unpublished a post",
  post_restored: "Restored an earlier version of a post",
  post_deleted: "Deleted a draft post",
} as const;
export type AccessAction = keyof typeof ACCESS_ACTIONS;

/** The log's filter: groups of actions a reader looks for together. */
export const ACCESS_KINDS = {
  "sign-ins": [
    "sign_in",
    "sign_in_failed",
    "two_factor_recovery_used",
    "two_factor_codes_warned",
    "two_factor_codes_closed",
  ],
  exports: ["export", "person_exported"],
  "added-leads": ["lead_added", "leads_imported", "lead_import_undone"],
  erasures: ["lead_erased", "person_erased"],
  content: ["post_published", "post_scheduled", "post_unpublished", "post_restored", "post_deleted"],
  accounts: [
    "session_ended",
    "sessions_ended",
    "staff_created",
    "staff_disabled",
    "staff_enabled",
    "staff_password_reset",
    "staff_link_issued",
    "staff_link_used",
    "staff_signed_out",
    "staff_role_changed",
  ],
  "two-factor": [
    "two_factor_enabled",
    "two_factor_disabled",
    "two_factor_codes_renewed",
    "two_factor_recovery_used",
    "two_factor_codes_warned",
    "two_factor_codes_closed",
    "staff_two_factor_reset",
    "staff_code_step_reopened",
  ],
} as const satisfies Record<string, readonly AccessAction[]>;
export type AccessKind = keyof typeof ACCESS_KINDS;

export const isAccessKind = (value: unknown): value is AccessKind =>
  typeof value === "string" && Object.hasOwn(ACCESS_KINDS, value);
