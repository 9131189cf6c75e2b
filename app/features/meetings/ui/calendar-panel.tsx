import { Form, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";

// The Availability page's calendar sections (issue 34): the host's CalDAV calendar (connect with a
// URL, a user name and an app password; then its state, "Refresh now" and "Disconnect") and their
// private iCalendar feed (its link and "Reset feed link"). Plain forms posting an `intent` to the
// page, so they work without JavaScript. The password is never sent back to the browser.

export type CalendarView = {
  url: string;
  username: string;
  connected: string;
  /** Formatted; null before the first successful read. */
  refreshed: string | null;
  /** The failure as said to staff, or null. */
  problem: string | null;
};

export type CalendarFormResult = {
  message: string;
  errors: Partial<Record<"url" | "username" | "password", string>>;
  values: { url: string; username: string };
};

function Hidden({ intent, userId }: { intent: string; userId: number }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="userId" value={userId} />
    </>
  );
}

const sectionClass = "grid gap-4 rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6";

export function CalendarPanel({
  userId,
  own,
  username,
  available,
  calendar,
  result,
}: {
  userId: number;
  own: boolean;
  username: string;
  available: boolean;
  calendar: CalendarView | null;
  result?: CalendarFormResult;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const whose = own ? "your" : `${username}'s`;
  return (
    <section id="calendar" aria-labelledby="calendar-heading" className={sectionClass}>
      <div>
        <h2 id="calendar-heading" className="text-xl font-semibold">
          {own ? "Your calendar" : `${username}'s calendar`}
        </h2>
        <p className="mt-1 max-w-3xl leading-7 text-ink-muted">
          Connect {whose} calendar (CalDAV) and the times {own ? "you are" : "they are"} busy there are not
          offered to visitors; every meeting booked is written into it.
        </p>
      </div>
      {!available ? (
        <p className="rounded-lg border border-line bg-surface-muted px-4 py-3 leading-6">
          Calendars are not available on this server.
        </p>
      ) : calendar ? (
        <>
          {calendar.problem ? (
            <div
              role="alert"
              className="rounded-lg border border-accent bg-amber-50 px-4 py-3 leading-6 text-ink"
            >
              <strong className="font-semibold">Warning: </strong>
              {calendar.problem}
            </div>
          ) : null}
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[10rem_minmax(0,1fr)]">
            <dt className="font-semibold">Calendar URL</dt>
            <dd className="min-w-0 font-mono text-sm break-all">{calendar.url}</dd>
            <dt className="font-semibold">User name</dt>
            <dd className="min-w-0 break-all">{calendar.username}</dd>
            <dt className="font-semibold">Connected</dt>
            <dd>{calendar.connected}</dd>
            <dt className="font-semibold">Last refreshed</dt>
            <dd>{calendar.refreshed ?? "Not read yet"}</dd>
          </dl>
          <div className="flex flex-wrap gap-3">
            <Form method="post">
              <Hidden intent="calendar-refresh" userId={userId} />
              <Button type="submit" variant="outline" aria-busy={pending === "calendar-refresh" || undefined}>
                {pending === "calendar-refresh" ? "Refreshing..." : "Refresh now"}
              </Button>
            </Form>
            <Form method="post">
              <Hidden intent="calendar-disconnect" userId={userId} />
              <Button
                type="submit"
                variant="ghost"
                className="text-danger hover:bg-red-50"
                aria-busy={pending === "calendar-disconnect" || undefined}
              >
                {pending === "calendar-disconnect" ? "Disconnecting..." : "Disconnect"}
              </Button>
            </Form>
          </div>
        </>
      ) : (
        <Form method="post" className="grid max-w-2xl gap-4">
          <Hidden intent="calendar-connect" userId={userId} />
          <p className="text-sm leading-6 [overflow-wrap:anywhere] text-ink-muted">
            Use an app password, not {own ? "your" : "the"} account's own password. iCloud: appleid.apple.com,
            Sign-In and Security, App-Specific Passwords; the URL is https://caldav.icloud.com/ followed by
            the calendar's path. Fastmail: Settings, Privacy &amp; Security, Integrations (app password); the
            calendar's CalDAV URL is under Settings, Calendars. Google: myaccount.google.com, Security, App
            passwords; https://apidata.googleusercontent.com/caldav/v2/&lt;calendar id&gt;/events. Nextcloud:
            Settings, Security, Devices &amp; sessions; the calendar's "Copy primary CalDAV address".
          </p>
          {result ? (
            <p
              role="alert"
              className="rounded-lg border border-danger bg-red-50 px-4 py-3 leading-6 text-danger"
            >
              Not connected: {result.message}
            </p>
          ) : null}
          <Field
            id="calendar-url"
            name="url"
            label="Calendar URL"
            required
            hint="The calendar's own CalDAV address, starting with https://."
            error={result?.errors.url}
          >
            {(control) => (
              <Input
                {...control}
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                maxLength={2000}
                defaultValue={result?.values.url}
              />
            )}
          </Field>
          <Field
            id="calendar-username"
            name="username"
            label="User name"
            required
            error={result?.errors.username}
          >
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                maxLength={200}
                defaultValue={result?.values.username}
              />
            )}
          </Field>
          <Field
            id="calendar-password"
            name="password"
            label="App password"
            required
            error={result?.errors.password}
          >
            {(control) => <Input {...control} type="password" autoComplete="new-password" maxLength={200} />}
          </Field>
          <Button
            type="submit"
            className="justify-self-start"
            aria-busy={pending === "calendar-connect" || undefined}
          >
            {pending === "calendar-connect" ? "Connecting..." : "Connect calendar"}
          </Button>
        </Form>
      )}
    </section>
  );
}

export function FeedPanel({ userId, own, feedUrl }: { userId: number; own: boolean; feedUrl: string }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "feed-reset";
  return (
    <section id="feed" aria-labelledby="feed-heading" className={sectionClass}>
      <div>
        <h2 id="feed-heading" className="text-xl font-semibold">
          Calendar feed
        </h2>
        <p className="mt-1 max-w-3xl leading-7 text-ink-muted">
          For a calendar app without CalDAV (Outlook, a phone's "subscribe to calendar"): this private link
          shows {own ? "your" : "these"} booked and held meetings, from 30 days ago onwards, read-only. Anyone
          with the link can read it: keep it to yourself, and reset it if it got out.
        </p>
      </div>
      <div className="grid gap-1.5">
        <p className="font-semibold">Feed link</p>
        {/* Text, not an input: all of it shows on a phone, and one click selects it whole. */}
        <code
          data-testid="feed-url"
          className="block rounded-md border border-line bg-surface-muted px-3 py-2.5 font-mono text-sm break-all select-all"
        >
          {feedUrl}
        </code>
      </div>
      <Form method="post">
        <Hidden intent="feed-reset" userId={userId} />
        <Button type="submit" variant="outline" aria-busy={pending || undefined}>
          {pending ? "Resetting..." : "Reset feed link"}
        </Button>
      </Form>
    </section>
  );
}
