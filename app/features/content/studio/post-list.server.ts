import { data, type RouterContextProvider } from "react-router";
import { formatDate, formatDateTime } from "#app/lib/format-date.ts";
import { POST_STATUSES, type PostStatus } from "../posts/post-fields.ts";
import { postsServices } from "../posts/posts-context.server.ts";
import { londonZoneName } from "./london-time.ts";
import { POSTS_PER_PAGE, readFilters, TRAFFIC_DAYS } from "./post-list-query.ts";
import { articlePath } from "./studio-paths.ts";

const DAY_MS = 86_400_000;

// /admin/content (issue 24): every article and press item with its status as readers see it now,
// author, dates, and an article's views and leads of the last 30 days; filtered by status and kind,
// searched, paged. Plain GET parameters, so every view is a link and works without JavaScript.

type Context = Readonly<RouterContextProvider>;

export async function loadPostList(request: Request, context: Context) {
  const filters = readFilters(new URL(request.url));
  const { posts, pageTraffic } = await postsServices(context);
  const base = { kind: filters.kind || undefined, q: filters.q || undefined };
  const [list, ...counts] = await Promise.all([
    posts.list({
      ...base,
      status: filters.status || undefined,
      page: filters.page,
      pageSize: POSTS_PER_PAGE,
    }),
    // How many of each status the search and kind give: the status views' counts.
    ...POST_STATUSES.map((status) => posts.list({ ...base, status, pageSize: 1 })),
  ]);
  const pageCount = Math.max(1, Math.ceil(list.total / POSTS_PER_PAGE));
  if (filters.page > pageCount && list.total > 0) throw data("No such page", { status: 404 });
  const since = new Date(Date.now() - (TRAFFIC_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const articles = list.posts.filter((post) => post.kind === "article");
  const traffic = await pageTraffic(
    articles.map((post) => articlePath(post.slug)),
    since,
  );
  // Posts of any kind or status: none at all is a first visit, not an empty search.
  const everything =
    filters.q || filters.kind || filters.status ? (await posts.list({ pageSize: 1 })).total : list.total;
  return {
    filters,
    total: list.total,
    everything,
    /** A draft was just deleted (the editor's redirect says so). */
    deleted: new URL(request.url).searchParams.get("notice") === "deleted",
    page: filters.page,
    pageCount,
    counts: Object.fromEntries(
      POST_STATUSES.map((status, index) => [status, counts[index]?.total ?? 0]),
    ) as Record<PostStatus, number>,
    posts: list.posts.map((post) => {
      const stats = post.kind === "article" ? traffic.get(articlePath(post.slug)) : undefined;
      return {
        id: post.id,
        kind: post.kind,
        title: post.title,
        slug: post.slug,
        status: post.status,
        author: post.author,
        outlet: post.outlet,
        /** A scheduled post's time; a published one's date readers see. */
        when:
          post.status === "scheduled" && post.publishAt
            ? `${formatDateTime(post.publishAt)} ${londonZoneName(post.publishAt)}`
            : post.firstPublishedAt
              ? formatDate(post.firstPublishedAt)
              : null,
        whenIso: post.status === "scheduled" ? post.publishAt : post.firstPublishedAt,
        updated: formatDate(post.updatedAt),
        updatedAt: post.updatedAt,
        /** Null for a press item: it is read on the publication's site. */
        views: stats ? stats.views : null,
        leads: stats ? stats.leads : null,
      };
    }),
  };
}
export type PostListData = Awaited<ReturnType<typeof loadPostList>>;
export type PostListRow = PostListData["posts"][number];
