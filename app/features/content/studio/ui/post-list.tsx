import { Form, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { cn } from "#app/lib/cn.ts";
import { POST_STATUSES, type PostStatus } from "../../posts/post-fields.ts";
import type { PostListData, PostListRow } from "../post-list.server.ts";
import { listHref, type PostListFilters, TRAFFIC_DAYS } from "../post-list-query.ts";
import { editorPath } from "../studio-paths.ts";
import { PostKindBadge, PostStatusBadge } from "./post-status-badge.tsx";

// The studio's list (issue 24): status views with counts, a search and a kind filter (one GET form),
// then the posts, a table on wide screens and cards on phones, with each article's last 30 days.

const STATUS_VIEW_LABELS: Record<PostStatus | "", string> = {
  "": "All",
  draft: "Drafts",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished",
};

export function PostStatusViews({ filters, counts }: Pick<PostListData, "filters" | "counts">) {
  const all = POST_STATUSES.reduce((sum, status) => sum + counts[status], 0);
  const views: (PostStatus | "")[] = ["", ...POST_STATUSES];
  return (
    <nav aria-label="Filter posts by status" className="-mx-1 max-w-full min-w-0 overflow-x-auto px-1 py-0.5">
      <ul className="inline-flex min-w-max gap-0.5 rounded-lg border border-line bg-surface-muted p-0.5">
        {views.map((status) => {
          const active = filters.status === status;
          const count = status === "" ? all : counts[status];
          return (
            <li key={status || "all"}>
              <Link
                to={listHref({ ...filters, status, page: 1 })}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "inline-block h-8 rounded-md px-3 text-sm leading-8 font-semibold whitespace-nowrap",
                  active ? "bg-white text-ink shadow-sm" : "text-ink-muted hover:bg-white/70 hover:text-ink",
                )}
              >
                {STATUS_VIEW_LABELS[status]}{" "}
                <span className="text-xs font-medium text-ink-muted tabular-nums">({count})</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function PostFilters({ filters }: { filters: PostListFilters }) {
  return (
    <Form method="get" role="search" aria-label="Posts" className="flex flex-wrap items-end gap-3">
      {filters.status ? <input type="hidden" name="status" value={filters.status} /> : null}
      <div className="grid min-w-0 flex-1 basis-64 gap-1">
        <label htmlFor="posts-q" className="text-sm font-semibold">
          Search
        </label>
        <Input
          id="posts-q"
          type="search"
          name="q"
          defaultValue={filters.q}
          maxLength={100}
          placeholder="Title, address, summary or author"
        />
      </div>
      <label className="grid gap-1 text-sm font-semibold">
        Kind
        <select
          name="kind"
          defaultValue={filters.kind}
          className="h-11 rounded-md border border-ink-muted bg-white px-3 text-base font-normal"
        >
          <option value="">Articles and press</option>
          <option value="article">Articles</option>
          <option value="press">Press items</option>
        </select>
      </label>
      <Button type="submit" variant="outline">
        Show posts
      </Button>
      {filters.q || filters.kind ? (
        <Link
          to={listHref({ status: filters.status })}
          className="inline-flex h-11 items-center text-sm font-semibold text-brand underline underline-offset-2"
        >
          Clear
        </Link>
      ) : null}
    </Form>
  );
}

function Traffic({ value, label }: { value: number | null; label: string }) {
  if (value === null)
    return (
      <span title="Press items are read on the publication's site">
        <span aria-hidden="true">—</span>
        <span className="sr-only">Not counted: read on the publication's site</span>
      </span>
    );
  return (
    <span className="tabular-nums">
      {value.toLocaleString("en-GB")}
      <span className="sr-only"> {label}</span>
    </span>
  );
}

function When({ post }: { post: PostListRow }) {
  if (!post.when || !post.whenIso) return <span className="text-ink-muted">Not published</span>;
  return (
    <time dateTime={post.whenIso}>
      {post.status === "scheduled" ? "Goes live " : ""}
      {post.when}
    </time>
  );
}

function TitleCell({ post }: { post: PostListRow }) {
  return (
    <div className="min-w-0">
      <Link
        to={editorPath(post.id)}
        className="font-semibold break-words text-brand underline-offset-2 hover:underline"
      >
        {post.title}
      </Link>
      <p className="mt-1 flex min-w-0 items-center gap-2 text-sm text-ink-muted">
        <PostKindBadge kind={post.kind} />
        <span className="min-w-0 truncate" title={post.kind === "press" ? undefined : `/blog/${post.slug}`}>
          {post.kind === "press" && post.outlet ? post.outlet : `/blog/${post.slug}`}
        </span>
      </p>
    </div>
  );
}

/** The posts: a table from 1024 px, a card each below that. */
export function PostTable({ posts }: { posts: PostListRow[] }) {
  const days = `in the last ${TRAFFIC_DAYS} days`;
  return (
    <>
      <div className="hidden overflow-hidden rounded-xl border border-line bg-white shadow-sm lg:block">
        <table className="w-full table-fixed text-left text-sm">
          <caption className="sr-only">Posts, most recently edited first</caption>
          <colgroup>
            <col />
            <col className="w-32" />
            <col className="w-40" />
            <col className="w-48" />
            <col className="w-32" />
            <col className="w-20" />
            <col className="w-20" />
          </colgroup>
          <thead className="border-b border-line bg-surface-muted text-ink">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Title
              </th>
              <th scope="col" className="px-3 py-3 font-semibold">
                Status
              </th>
              <th scope="col" className="px-3 py-3 font-semibold">
                Author
              </th>
              <th scope="col" className="px-3 py-3 font-semibold">
                Published
              </th>
              <th scope="col" className="px-3 py-3 font-semibold">
                Edited
              </th>
              <th scope="col" className="px-3 py-3 text-right font-semibold">
                <abbr title={`Page views ${days}`} className="no-underline">
                  Views
                </abbr>
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold">
                <abbr title={`Leads whose visit began on the post, ${days}`} className="no-underline">
                  Leads
                </abbr>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {posts.map((post) => (
              <tr key={post.id} data-post-id={post.id} className="align-top hover:bg-surface-muted/60">
                <td className="px-4 py-3">
                  <TitleCell post={post} />
                </td>
                <td className="px-3 py-3">
                  <PostStatusBadge status={post.status} />
                </td>
                <td className="px-3 py-3 break-words">
                  {post.author || <span className="text-ink-muted">Clausebridge</span>}
                </td>
                <td className="px-3 py-3">
                  <When post={post} />
                </td>
                <td className="px-3 py-3">
                  <time dateTime={post.updatedAt}>{post.updated}</time>
                </td>
                <td className="px-3 py-3 text-right">
                  <Traffic value={post.views} label={`views ${days}`} />
                </td>
                <td className="px-4 py-3 text-right">
                  <Traffic value={post.leads} label={`leads ${days}`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ul aria-label="Posts" className="grid grid-cols-1 gap-3 lg:hidden">
        {posts.map((post) => (
          <li
            key={post.id}
            data-post-id={post.id}
            className="grid min-w-0 grid-cols-1 gap-1.5 rounded-xl border border-line bg-white p-4 shadow-sm"
          >
            <div className="flex items-start justify-between gap-3">
              <TitleCell post={post} />
              <PostStatusBadge status={post.status} className="shrink-0" />
            </div>
            <p className="text-sm">
              <span>{post.author || "Clausebridge"}</span>
              <span aria-hidden="true" className="px-1.5 text-ink-muted">
                ·
              </span>
              <When post={post} />
            </p>
            <p className="text-sm text-ink-muted">
              {post.views === null ? (
                "Read on the publication's site"
              ) : (
                <>
                  <span className="font-semibold text-ink tabular-nums">
                    {post.views.toLocaleString("en-GB")}
                  </span>{" "}
                  views,{" "}
                  <span className="font-semibold text-ink tabular-nums">
                    {(post.leads ?? 0).toLocaleString("en-GB")}
                  </span>{" "}
                  leads in {TRAFFIC_DAYS} days
                </>
              )}
              <span aria-hidden="true" className="px-1.5">
                ·
              </span>
              Edited <time dateTime={post.updatedAt}>{post.updated}</time>
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
