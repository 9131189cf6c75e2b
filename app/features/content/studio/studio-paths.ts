// The content studio's addresses (issue 24), in one place for its pages, links and tests.

export const CONTENT_PATH = "/admin/content";
export const NEW_POST_PATH = `${CONTENT_PATH}/new`;

export const editorPath = (id: number) => `${CONTENT_PATH}/${id}`;
export const revisionsPath = (id: number) => `${CONTENT_PATH}/${id}/revisions`;

/** Where readers find an article (a press item links out to its publication instead). */
export const articlePath = (slug: string) => `/blog/${slug}`;

/** What a redirect after a form post tells the page (`?notice=`): the page says it in words. */
export const EDITOR_NOTICES = [
  "created",
  "saved",
  "published",
  "scheduled",
  "unpublished",
  "unscheduled",
  "restored",
  "unchanged",
  "not-ready",
  "deleted",
] as const;
export type EditorNotice = (typeof EDITOR_NOTICES)[number];
export const NOTICE_PARAM = "notice";

export function readNotice(url: URL): EditorNotice | null {
  const value = url.searchParams.get(NOTICE_PARAM);
  return (EDITOR_NOTICES as readonly string[]).includes(value ?? "") ? (value as EditorNotice) : null;
}

export const withNotice = (path: string, notice: EditorNotice) => `${path}?${NOTICE_PARAM}=${notice}`;
