import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import type { PostState } from "../post-editor.server.ts";

// Publishing, in the editor's bar (issue 24): a disclosure (<details>, so it opens without
// JavaScript) holding what can be done to the post now. Every button submits the editor's form, so
// what is typed is saved first. A time is typed in UK time (Europe/London) and stored in UTC. Once
// the action is done the menu closes (the page's notice says what happened), unless the time was
// refused: it stays open on the reason.

export function PublishMenu({
  post,
  scheduleDefault,
  scheduleError,
  disabled,
}: {
  post: PostState | null;
  scheduleDefault: string;
  scheduleError?: string;
  disabled: boolean;
}) {
  const publishing = usePendingIntent("publish");
  const scheduling = usePendingIntent("schedule");
  const unpublishing = usePendingIntent("unpublish");
  const status = post?.status ?? "draft";
  const live = status === "published";
  const label = live ? "Published" : status === "scheduled" ? "Scheduled" : "Publish";
  const menu = useRef<HTMLDetailsElement>(null);
  const pending = publishing || scheduling || unpublishing;
  const wasPending = useRef(false);
  useEffect(() => {
    if (wasPending.current && !pending && !scheduleError && menu.current) menu.current.open = false;
    wasPending.current = pending;
  }, [pending, scheduleError]);
  return (
    <details ref={menu} className="group relative" open={scheduleError ? true : undefined}>
      <summary
        className={cn(
          "flex h-11 cursor-pointer list-none items-center gap-2 rounded-md px-4 font-semibold [&::-webkit-details-marker]:hidden",
          live
            ? "border border-success bg-green-50 text-success hover:bg-green-100"
            : "bg-accent text-ink hover:bg-[#e09c00]",
        )}
      >
        {label}
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-4 transition-transform group-open:rotate-180"
        >
          <path d="m5 8 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </summary>
      <div className="absolute right-0 z-40 mt-2 grid w-[min(22rem,calc(100vw-2rem))] gap-4 rounded-xl border border-line bg-white p-4 text-ink shadow-xl">
        {live ? (
          <>
            <p className="text-sm leading-6">
              Live since <strong>{post?.firstPublished}</strong>. Saving changes what readers see at once.
            </p>
            {post?.publicUrl ? (
              <Link
                to={post.publicUrl}
                reloadDocument
                target="_blank"
                rel="noopener"
                className="text-sm font-semibold text-brand underline underline-offset-2"
              >
                {post.kind === "press" ? "Read it at the publication" : "View it on the site"}
                <span className="sr-only"> (opens in a new tab)</span>
              </Link>
            ) : null}
            <div className="border-t border-line pt-4">
              <Button type="submit" name="intent" value="unpublish" variant="danger" disabled={disabled}>
                {unpublishing ? "Unpublishing…" : "Unpublish"}
              </Button>
              <p className="mt-2 text-sm text-ink-muted">
                Takes it off the blog, the feed and the sitemap; its address then says it is gone.
              </p>
            </div>
          </>
        ) : (
          <>
            {status === "scheduled" ? (
              <p className="text-sm leading-6">
                Goes live on <strong>{post?.publishAtText}</strong>, by itself.
              </p>
            ) : null}
            <div className="grid gap-2">
              <Button type="submit" name="intent" value="publish" disabled={disabled}>
                {publishing ? "Publishing…" : "Publish now"}
              </Button>
              <p className="text-sm text-ink-muted">Saves it and puts it on the site at once.</p>
            </div>
            <div className="grid gap-2 border-t border-line pt-4">
              <label htmlFor="publishAt" className="text-sm font-semibold">
                {status === "scheduled" ? "Change the time" : "Or schedule it for"}
              </label>
              <p id="publishAt-hint" className="text-sm text-ink-muted">
                In UK time (London), whatever this computer's clock says.
              </p>
              <input
                key={scheduleDefault}
                id="publishAt"
                name="publishAt"
                type="datetime-local"
                defaultValue={scheduleDefault}
                aria-describedby={scheduleError ? "publishAt-hint publishAt-error" : "publishAt-hint"}
                aria-invalid={scheduleError ? true : undefined}
                className="h-11 w-full rounded-md border border-ink-muted bg-white px-3 text-base aria-invalid:border-2 aria-invalid:border-danger"
              />
              {scheduleError ? (
                <p id="publishAt-error" className="text-sm font-semibold text-danger">
                  {scheduleError}
                </p>
              ) : null}
              <Button type="submit" name="intent" value="schedule" variant="outline" disabled={disabled}>
                {scheduling ? "Scheduling…" : status === "scheduled" ? "Reschedule" : "Schedule"}
              </Button>
            </div>
            {status === "scheduled" ? (
              <div className="border-t border-line pt-4">
                <Button type="submit" name="intent" value="unpublish" variant="ghost" disabled={disabled}>
                  {unpublishing ? "Cancelling…" : "Cancel the schedule"}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </details>
  );
}
