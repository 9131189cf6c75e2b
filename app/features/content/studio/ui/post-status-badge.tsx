import { cn } from "#app/lib/cn.ts";
import type { PostKind, PostStatus } from "../../posts/post-fields.ts";

// A post's status and kind as the studio shows them (issue 24): dark text on a pale tint (above the
// 4.5:1 of WCAG AA for small text), the word always written, never the colour alone.

export const STATUS_LABELS: Readonly<Record<PostStatus, string>> = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished",
};

const STATUS_CLASS: Readonly<Record<PostStatus, string>> = {
  draft: "bg-slate-200 text-slate-900",
  scheduled: "bg-amber-100 text-amber-900",
  published: "bg-green-100 text-green-900",
  unpublished: "bg-red-100 text-red-900",
};

export const KIND_LABELS: Readonly<Record<PostKind, string>> = { article: "Article", press: "Press" };

const badge = "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap";

export function PostStatusBadge({ status, className }: { status: PostStatus; className?: string }) {
  return (
    <span data-status={status} className={cn(badge, STATUS_CLASS[status], className)}>
      {STATUS_LABELS[status]}
    </span>
  );
}

export function PostKindBadge({ kind }: { kind: PostKind }) {
  return (
    <span
      className={cn(badge, kind === "press" ? "bg-violet-100 text-violet-900" : "bg-blue-100 text-blue-900")}
    >
      {KIND_LABELS[kind]}
    </span>
  );
}
