// The /admin/webhooks page's address and the notices its no-JavaScript redirects carry (shared by
// the server's actions and the page).

export const WEBHOOKS_PATH = "/admin/webhooks";
export const NOTICE_PARAM = "notice";
export const CONFIRM_DELETE_PARAM = "confirm-delete";

export const WEBHOOK_NOTICES = {
  "test-queued": {
    title: "Test event queued",
    text: "It goes out in a moment; the delivery log shows the answer.",
  },
  deleted: { title: "Webhook deleted", text: "It receives no more events; its delivery log is gone too." },
} as const;
export type WebhookNotice = keyof typeof WEBHOOK_NOTICES;

/** The notice in a redirect's query, if it is one of ours. */
export function readWebhookNotice(url: URL): WebhookNotice | null {
  const value = url.searchParams.get(NOTICE_PARAM);
  return value === "test-queued" || value === "deleted" ? value : null;
}
