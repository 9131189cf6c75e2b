// Cache lifetimes, named so the reason for each value is written once.

/** Vite-hashed files under /assets never change content under the same name. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/** HTML and React Router `.data` files: always revalidated (ETag) so a deploy shows at once. */
export const REVALIDATE = "public, max-age=0, must-revalidate";

/** Un-hashed public files (favicon, press images, the PDF deck): a day, then revalidate. */
export const SHORT = "public, max-age=86400, must-revalidate";

/** Server-rendered responses (404s, admin, API) are never stored by shared caches. */
export const PRIVATE_NO_STORE = "private, no-store";
