import type { RouterContextProvider } from "react-router";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { MediaLibrary } from "./media-library.server.ts";

/** What the content studio's media library needs (issue 24, ADR 024). */
export type MediaServices = {
  /**
   * Uploads processed in a worker thread, one at a time per instance, stored with their variants in
   * the database, served from every instance.
   */
  media: MediaLibrary;
};

export const mediaServicesKey = createServiceKey<MediaServices>("media services");

export const mediaServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, mediaServicesKey);
