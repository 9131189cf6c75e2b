// The rules blog files and studio posts share, in a module with no dependencies so the browser's
// editor can check them without loading the markdown parser (blog-parser.ts re-exports them).

/** The blog categories of SPEC section 3. */
export const BLOG_CATEGORIES = [
  "Press Coverage",
  "Industry Insights",
  "Technology",
  "Best Practices",
] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

/** The category every press item carries. */
export const PRESS_CATEGORY = "Press Coverage" satisfies BlogCategory;

/** A post's address under /blog/: lower-case ASCII words joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
