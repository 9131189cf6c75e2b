import type { MetaDescriptor } from "react-router";
import { pageTitle } from "./meta.ts";

/** Title and noindex for a back-office page (robots.txt also disallows /admin; this covers links). */
export function adminMeta(title: string): MetaDescriptor[] {
  return [{ title: pageTitle(title) }, { name: "robots", content: "noindex, nofollow" }];
}
