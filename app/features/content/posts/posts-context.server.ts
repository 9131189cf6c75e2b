import type { RouterContextProvider } from "react-router";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { PublishedSite } from "../published/published-site.server.ts";
import type { PostsService } from "./posts-service.server.ts";

/** A page's views and the leads whose visit entered the site on it (the analytics report's definitions). */
export type PageTraffic = { views: number; leads: number };

/** A staff account the editor offers as a post's author. */
export type StaffAuthor = { id: number; username: string };

/** What the content studio needs (issue 24). */
export type PostsServices = {
  /** Its posts service, bound to the database, secret and clock. */
  posts: PostsService;
  /** What readers see now: the public blog pages, feed and sitemap read it (published-site.server.ts). */
  site: PublishedSite;
  /**
   * Views and leads of public paths from a UTC day (YYYY-MM-DD) on, at most 200 paths a call: the
   * studio's list shows each article's last 30 days. Owned by analytics; the root provides it.
   */
  pageTraffic(paths: readonly string[], since: string): Promise<ReadonlyMap<string, PageTraffic>>;
  /** The staff accounts that can sign in, for the editor's author choice. Owned by auth. */
  staffAuthors(): Promise<StaffAuthor[]>;
  /** PUBLIC_URL when set: preview links are shown on it (else on the request's own origin). */
  publicUrl: string | undefined;
};

export const postsServicesKey = createServiceKey<PostsServices>("posts services");

export const postsServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, postsServicesKey);
