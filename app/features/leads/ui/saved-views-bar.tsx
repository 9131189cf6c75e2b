import { Form, Link, useLocation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { cn } from "#app/lib/cn.ts";
import type { SavedView } from "../saved-views.server.ts";
import { BUILT_IN_VIEWS, SAVED_VIEW_KEYS, SAVED_VIEW_NAME_MAX } from "./saved-view-words.ts";

/** A view's query with only what a view keeps, in one order, so two spellings of a view compare equal. */
function normalise(query: string): string {
  const params = new URLSearchParams(query);
  return SAVED_VIEW_KEYS.flatMap((key) => {
    const value = params.get(key);
    return value ? [`${key}=${value}`] : [];
  }).join("&");
}

const chip =
  "inline-flex h-8 max-w-56 items-center gap-1.5 rounded-full border px-3 text-sm font-semibold whitespace-nowrap";

function ViewLink({
  name,
  query,
  current,
  shared,
  base,
}: {
  base: string;
  name: string;
  query: string;
  current: boolean;
  shared?: boolean;
}) {
  return (
    <Link
      to={query ? `${base}?${query}` : base}
      aria-current={current ? "page" : undefined}
      title={shared === undefined ? undefined : shared ? "Shared with the team" : "Only you see this view"}
      className={cn(
        chip,
        current
          ? "border-brand bg-brand text-white"
          : "border-line bg-white text-brand hover:border-brand hover:bg-brand-soft",
      )}
    >
      <span className="truncate">{name}</span>
      {shared === false ? (
        <span className={cn("text-xs font-medium", current ? "text-white" : "text-ink-muted")}>· you</span>
      ) : null}
    </Link>
  );
}

/**
 * The views a team keeps: "My leads" and "Unassigned" for everyone, the team's shared views and the
 * person's own; and a small form that saves the list as it is now (filters and sort) under a name.
 * Plain links and forms: it all works without JavaScript.
 */
export function SavedViewsBar({
  views,
  action,
  base = DASHBOARD_PATH,
}: {
  views: SavedView[];
  action: string;
  /** Where a view's link opens it: the list, or the board (issue 35). */
  base?: string;
}) {
  const { search } = useLocation();
  const current = normalise(search);
  const own = views.filter((view) => view.mine);
  return (
    <div className="flex max-w-full min-w-0 items-center gap-2">
      <nav aria-label="Views" className="relative -mx-1 min-w-0 overflow-x-auto px-1 py-0.5">
        <ul className="flex min-w-max items-center gap-1.5">
          {BUILT_IN_VIEWS.map((view) => (
            <li key={view.key}>
              <ViewLink
                base={base}
                name={view.name}
                query={view.query}
                current={current === normalise(view.query)}
              />
            </li>
          ))}
          {views.map((view) => (
            <li key={view.id}>
              <ViewLink
                base={base}
                name={view.name}
                query={view.query}
                shared={view.shared}
                current={current === normalise(view.query)}
              />
            </li>
          ))}
        </ul>
      </nav>
      <details className="relative shrink-0" data-popover>
        <summary className="inline-flex h-8 cursor-pointer list-none items-center rounded-full px-3 text-sm font-semibold text-brand hover:bg-brand-soft [&::-webkit-details-marker]:hidden">
          Save view
        </summary>
        <div className="absolute right-0 top-full z-20 mt-2 grid w-[min(22rem,calc(100vw-2rem))] gap-4 rounded-xl border border-line bg-white p-4 shadow-lg">
          <Form method="post" action={action} className="grid gap-3">
            <input type="hidden" name="intent" value="save-view" />
            <p className="text-sm text-ink-muted">
              Saves the filters and sort shown now. Saving an existing name updates it.
            </p>
            <div className="grid gap-1">
              <label htmlFor="view-name" className="text-sm font-semibold">
                Name
              </label>
              <Input
                id="view-name"
                name="name"
                required
                maxLength={SAVED_VIEW_NAME_MAX}
                className="h-9 text-sm"
              />
            </div>
            <fieldset className="grid gap-1.5">
              <legend className="text-sm font-semibold">Who sees it</legend>
              <label className="flex items-center gap-2 text-sm">
                <input type="radio" name="scope" value="personal" defaultChecked className="accent-brand" />
                Only me
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input type="radio" name="scope" value="team" className="accent-brand" />
                The whole team
              </label>
            </fieldset>
            <Button type="submit" size="sm" className="justify-self-start">
              Save view
            </Button>
          </Form>
          {own.length > 0 ? (
            <div className="grid gap-2 border-t border-line pt-3">
              <p className="text-sm font-semibold">Your views</p>
              <ul className="grid gap-1">
                {own.map((view) => (
                  <li key={view.id} className="flex items-center justify-between gap-2 text-sm">
                    <span className="min-w-0 truncate">
                      {view.name}
                      <span className="text-ink-muted"> · {view.shared ? "team" : "only you"}</span>
                    </span>
                    <Form method="post" action={action}>
                      <input type="hidden" name="intent" value="delete-view" />
                      <input type="hidden" name="viewId" value={view.id} />
                      <Button type="submit" size="sm" variant="ghost" className="h-8">
                        Delete<span className="sr-only"> view {view.name}</span>
                      </Button>
                    </Form>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      </details>
    </div>
  );
}
