import type { RouterContextProvider } from "react-router";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { PublishedSite } from "../published/published-site.server.ts";
import type { PostsService } from "./posts-service.server.ts";

/** What the content studio needs (issue 24): its posts service, bound to the database, secret and clock. */
export type PostsServices = {
  posts: PostsService;
  /** What readers see now: the public blog pages, feed and sitemap read it (published-site.server.ts). */
  site: PublishedSite;
};

export const postsServicesKey = createServiceKey<PostsServices>("posts services");

export const postsServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, postsServicesKey);
