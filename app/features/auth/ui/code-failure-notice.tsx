import { Form, Link, useLocation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ACCOUNT_PATH } from "#app/lib/admin-paths.ts";
import { formatCalendarDay } from "#app/lib/format-date.ts";

/** A day with 5 or more wrong codes from browsers the owner has not signed in with. */
export type CodeFailureNoticeView = { day: string; wrongCodes: number };

export const DISMISS_CODE_NOTICE_INTENT = "dismiss-code-notice";

/**
 * Issue 32 point 3: the owner is told, at their next sign-in and on every back-office page until
 * they dismiss it, that someone entered wrong two-factor codes for their account (so they likely
 * have the password). Dismissing posts to the account page, which sends them back here.
 */
export function CodeFailureNotice({ notices }: { notices: CodeFailureNoticeView[] }) {
  const { pathname, search } = useLocation();
  if (notices.length === 0) return null;
  const days = notices
    .map(
      (notice) =>
        `${notice.wrongCodes} wrong ${notice.wrongCodes === 1 ? "code" : "codes"} on ${formatCalendarDay(notice.day)}`,
    )
    .join(", ");
  return (
    <div className="mx-auto max-w-7xl px-4 pt-6 sm:px-6">
      <Banner tone="error" className="flex flex-wrap items-center gap-x-6 gap-y-3">
        <div className="min-w-0 flex-1 basis-72">
          <p className="font-semibold">Someone tried to get past your two-factor sign-in.</p>
          <p>
            Wrong two-factor codes were entered for your account from browsers you have not signed in with:{" "}
            {days} (UTC). Whoever did it probably knows your password: have it changed (by an administrator,
            or on the staff page if you are one) and check your sessions on{" "}
            <Link to={ACCOUNT_PATH} className="font-semibold underline">
              your account page
            </Link>
            .
          </p>
        </div>
        <Form method="post" action={ACCOUNT_PATH}>
          <input type="hidden" name="intent" value={DISMISS_CODE_NOTICE_INTENT} />
          <input type="hidden" name="next" value={pathname + search} />
          <Button type="submit" variant="outline" size="sm">
            Dismiss<span className="sr-only"> the notice about wrong codes</span>
          </Button>
        </Form>
      </Banner>
    </div>
  );
}
