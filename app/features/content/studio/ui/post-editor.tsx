import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { Form, Link, useNavigate, useNavigation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { AlertDialog, AlertDialogCancel, AlertDialogContent } from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { cn } from "#app/lib/cn.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import { PRESS_CATEGORY } from "../../content-rules.ts";
import { diffPosts } from "../../posts/post-diff.ts";
import { DEFAULT_ARTICLE_CATEGORY, POST_FIELD_LABELS, POST_LIMITS } from "../../posts/post-fields.ts";
import type { PostFieldErrors } from "../../posts/post-schema.ts";
import { isSuggestedSlug, suggestSlug } from "../../posts/post-slug.ts";
import type { ConflictData } from "../post-conflict.ts";
import type { EditorActionData, EditorLoaderData } from "../post-editor.server.ts";
import { ARTICLE_CATEGORIES, type EditorValues, fieldsOfValues, sameValues } from "../post-form.ts";
import type { PreviewImage } from "../post-preview.ts";
import {
  CONTENT_PATH,
  type EditorNotice,
  editorPath,
  NEW_POST_PATH,
  revisionsPath,
} from "../studio-paths.ts";
import { AUTOSAVE_MESSAGES, autosaveDraft } from "./autosave.ts";
import { BodyEditor } from "./body-editor.tsx";
import { ConflictScreen, VersionText } from "./conflict-screen.tsx";
import { CoverField } from "./cover-field.tsx";
import { PostDiffView } from "./diff-view.tsx";
import { formFields } from "./editor-fields.tsx";
import { PostStatusBadge } from "./post-status-badge.tsx";
import { PublishMenu } from "./publish-menu.tsx";
import { useLeaveWarning } from "./use-leave-warning.ts";

// The post editor (issue 24, ADR 027): one form, the same with and without JavaScript (every button
// posts it with its intent; post-editor.server.ts). With JavaScript it also previews as you type,
// suggests the address from the title until you change it, saves a draft by itself 3 seconds after
// you stop typing (not a live post: that changes only when saved on purpose), warns before you leave
// with changes not saved, and shows the conflict screen when someone else saved in between.

/** How long after the last keystroke a draft saves itself. */
export const AUTOSAVE_DELAY_MS = 3000;

type AutosaveState =
  | { kind: "idle" }
  | { kind: "saving" }
  | { kind: "saved"; at: string }
  | { kind: "failed"; message: string };

type Base = { id: number | null; revision: number | null; values: EditorValues };

const NOTICES: Record<EditorNotice, { tone: "success" | "error" | "info"; text: string }> = {
  created: { tone: "success", text: "Draft saved. From now on it also saves itself as you type." },
  saved: { tone: "success", text: "Saved." },
  unchanged: { tone: "info", text: "Nothing had changed since the last save." },
  published: { tone: "success", text: "Published: it is on the site now." },
  scheduled: { tone: "success", text: "Scheduled: it goes live by itself at the time shown." },
  unpublished: { tone: "success", text: "Unpublished: its address now tells readers it is gone." },
  unscheduled: { tone: "success", text: "Schedule cancelled: it is a draft again." },
  restored: { tone: "success", text: "Revision restored, as a new revision: this is it." },
  "not-ready": { tone: "error", text: "Saved, but not published: it still needs what is marked below." },
  // Said on the list, where a deleted draft's page sends you.
  deleted: { tone: "success", text: "Draft deleted." },
};

function actionValues(action: EditorActionData | undefined): EditorValues | null {
  if (!action) return null;
  if (action.kind === "invalid" || action.kind === "refused" || action.kind === "preview")
    return action.values;
  return null;
}

export function PostEditor({
  data,
  actionData,
}: {
  data: EditorLoaderData;
  actionData: EditorActionData | undefined;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const loaderBase: Base = {
    id: data.post?.id ?? null,
    revision: data.post?.revision ?? null,
    values: data.values,
  };

  const [values, setValues] = useState<EditorValues>(() => actionValues(actionData) ?? data.values);
  const [base, setBase] = useState<Base>(loaderBase);
  const [slugFollows, setSlugFollows] = useState(
    () =>
      !data.post || (data.post.status === "draft" && isSuggestedSlug(data.values.slug, data.values.title)),
  );
  const [extraImages, setExtraImages] = useState<PreviewImage[]>([]);
  const [conflict, setConflict] = useState<ConflictData | null>(
    actionData?.kind === "conflict" ? actionData : null,
  );
  const [autosave, setAutosave] = useState<AutosaveState>({ kind: "idle" });
  const [autosaveErrors, setAutosaveErrors] = useState<PostFieldErrors>({});
  const [autosaving, setAutosaving] = useState(false);
  const allowLeave = useRef(false);

  // A new version from the server (a save, a restore, another's save after "discard"): the form
  // shows it. The same revision (this page's own autosave, or the draft taking its address) keeps
  // what is being typed.
  const [seenLoader, setSeenLoader] = useState(data);
  if (seenLoader !== data) {
    setSeenLoader(data);
    if (loaderBase.id !== base.id || loaderBase.revision !== base.revision) {
      setBase(loaderBase);
      setValues(data.values);
      setAutosave({ kind: "idle" });
      setAutosaveErrors({});
      // The conflict is settled: saved over, or the latest taken.
      setConflict(null);
    }
  }
  const [seenAction, setSeenAction] = useState(actionData);
  if (seenAction !== actionData) {
    setSeenAction(actionData);
    const posted = actionValues(actionData);
    if (posted) setValues(posted);
    if (actionData?.kind === "conflict") setConflict(actionData);
    if (actionData?.kind === "merge") setConflict(null);
  }

  const dirty = !sameValues(values, base.values);
  const live = data.post?.status === "published";
  const images = useMemo(
    () =>
      new Map(
        [...data.images, ...(actionData?.kind === "preview" ? actionData.images : []), ...extraImages].map(
          (image) => [image.id, image],
        ),
      ),
    [data.images, actionData, extraImages],
  );
  const action = base.id ? editorPath(base.id) : NEW_POST_PATH;
  const blocker = useLeaveWarning(dirty && hydrated, allowLeave);

  // Autosave: a draft saves itself 3 s after the last change (once it has a title), through the
  // posts API (autosave.ts); never a live post, never while a form of the page is on its way.
  const submitting = navigation.state !== "idle";
  const baseRef = useRef(base);
  baseRef.current = base;
  useEffect(() => {
    if (!hydrated || !dirty || live || conflict || submitting || autosaving) return;
    if (base.id === null && !values.title.trim()) return;
    const sentValues = values;
    const sentBase = base;
    const fromTitle = slugFollows;
    const timer = setTimeout(async () => {
      setAutosaving(true);
      setAutosave({ kind: "saving" });
      const answer = await autosaveDraft(sentValues, sentBase, { slugFromTitle: fromTitle });
      setAutosaving(false);
      // The page moved on meanwhile (a reload of the latest): this answer is about an older state.
      if (baseRef.current.id !== sentBase.id || baseRef.current.revision !== sentBase.revision) return;
      switch (answer.kind) {
        case "saved": {
          // The address the server gave: suggested for a new draft, or the next free one when the
          // title's suggestion was taken ("-2"). It shows unless the address was typed meanwhile.
          const adopt = !sentValues.slug || fromTitle;
          const savedValues = { ...sentValues, slug: adopt ? answer.slug : sentValues.slug };
          setBase({ id: answer.id, revision: answer.revision, values: savedValues });
          setValues((current) =>
            !current.slug || (adopt && current.slug === sentValues.slug)
              ? { ...current, slug: answer.slug }
              : current,
          );
          setAutosave({ kind: "saved", at: answer.savedAtText });
          setAutosaveErrors({});
          break;
        }
        case "conflict":
          setConflict(answer.conflict);
          setAutosave({ kind: "idle" });
          break;
        case "invalid":
          setAutosave({ kind: "failed", message: AUTOSAVE_MESSAGES.invalid });
          setAutosaveErrors(answer.errors);
          break;
        case "failed":
          setAutosave({ kind: "failed", message: answer.message });
          break;
      }
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [hydrated, dirty, live, conflict, submitting, autosaving, base, values, slugFollows]);

  // A new draft's first autosave gave it an address: the page moves there without reloading.
  useEffect(() => {
    if (base.id !== null && data.post === null) {
      allowLeave.current = true;
      navigate(editorPath(base.id), { replace: true, preventScrollReset: true });
    } else {
      allowLeave.current = false;
    }
  }, [base.id, data.post, navigate]);

  function update(change: Partial<EditorValues>) {
    setValues((current) => {
      const next = { ...current, ...change };
      // An article is never in Press Coverage: a press item turned into an article takes the default.
      if (change.kind === "article" && next.category === PRESS_CATEGORY)
        next.category = DEFAULT_ARTICLE_CATEGORY;
      if (change.title !== undefined && slugFollows)
        next.slug = change.title.trim() ? suggestSlug(change.title) : "";
      return next;
    });
  }

  if (conflict)
    return (
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-6 px-4 py-8 sm:px-6">
        <ConflictScreen
          conflict={conflict}
          action={action}
          onDiscard={() => {
            setConflict(null);
            setValues(base.values);
          }}
        />
      </div>
    );

  const errors: PostFieldErrors & { publishAt?: string } = {
    ...data.problems,
    ...autosaveErrors,
    ...(actionData?.kind === "invalid" ? actionData.errors : {}),
  };
  const notice = data.notice && !(hydrated && dirty) ? NOTICES[data.notice] : null;
  const merging = actionData?.kind === "merge" ? actionData.yours : null;
  const field = formFields(values, update, errors);

  return (
    <Form
      method="post"
      action={action}
      id="post-editor"
      className="pb-16"
      onSubmit={() => setAutosaveErrors({})}
    >
      <input type="hidden" name="revision" value={base.revision ?? ""} />
      {/* The address is still the title's suggestion (only known with JavaScript): a taken one
          becomes the next free one instead of refusing the save. */}
      <input type="hidden" name="slugFromTitle" value={hydrated && slugFollows ? "1" : ""} />
      <EditorBar
        data={data}
        dirty={dirty}
        hydrated={hydrated}
        autosave={autosave}
        live={live}
        busy={submitting || autosaving}
        scheduleError={errors.publishAt}
      />

      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-6 px-4 pt-6 sm:px-6">
        {notice ? <Banner tone={notice.tone}>{notice.text}</Banner> : null}
        {actionData?.kind === "invalid" || actionData?.kind === "refused" ? (
          <Banner tone="error">{actionData.message}</Banner>
        ) : null}
        {Object.keys(errors).length > 0 && actionData?.kind !== "invalid" ? (
          <ProblemList errors={errors} />
        ) : null}
        {merging ? <MergePanel data={data} yours={merging} /> : null}
        {data.confirmDelete && data.deletable && data.post ? (
          <section
            aria-labelledby="delete-title"
            className="grid gap-3 rounded-xl border border-danger bg-red-50 p-4 sm:p-6"
          >
            <h2 id="delete-title" className="text-lg font-semibold text-danger">
              Delete this draft?
            </h2>
            <p className="leading-7">
              It has never been published, so nobody has seen it. The draft and all its revisions are removed
              for good.
            </p>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" name="intent" value="delete" variant="danger">
                Delete the draft
              </Button>
              <Button asChild variant="outline">
                <Link to={editorPath(data.post.id)}>Keep it</Link>
              </Button>
            </div>
          </section>
        ) : null}

        <div className="grid gap-4">
          <div className="grid gap-1">
            <label htmlFor="title" className="sr-only">
              Title
            </label>
            <textarea
              id="title"
              name="title"
              rows={1}
              value={values.title}
              onChange={(event) => update({ title: event.currentTarget.value.replace(/\r?\n/g, " ") })}
              // A title is one line: Enter does not break it.
              onKeyDown={(event) => {
                if (event.key === "Enter") event.preventDefault();
              }}
              maxLength={POST_LIMITS.title}
              placeholder="Title"
              aria-invalid={errors.title ? true : undefined}
              aria-describedby={errors.title ? "title-error" : undefined}
              className="field-sizing-content w-full resize-none rounded-md border-0 bg-transparent px-0 text-3xl leading-tight font-bold tracking-tight text-ink placeholder:text-slate-500 focus-visible:outline-3 focus-visible:outline-offset-4 aria-invalid:underline aria-invalid:decoration-danger sm:text-4xl"
            />
            {errors.title ? (
              <p id="title-error" className="text-sm font-semibold text-danger">
                {errors.title}
              </p>
            ) : null}
          </div>
          <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_12rem_12rem] md:items-start">
            <div className="grid min-w-0 gap-1.5">
              <label htmlFor="slug" className="text-sm font-semibold">
                Address
              </label>
              <span className="flex min-w-0 items-center rounded-md border border-ink-muted bg-white focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-brand">
                <span className="pl-3 font-mono text-sm text-ink-muted" aria-hidden="true">
                  /blog/
                </span>
                <input
                  id="slug"
                  name="slug"
                  value={values.slug}
                  onChange={(event) => {
                    setSlugFollows(false);
                    update({ slug: event.currentTarget.value });
                  }}
                  maxLength={POST_LIMITS.slug}
                  spellCheck={false}
                  autoCapitalize="none"
                  placeholder={data.post ? "" : "made-from-the-title"}
                  aria-invalid={errors.slug ? true : undefined}
                  aria-describedby={errors.slug ? "slug-hint slug-error" : "slug-hint"}
                  className="h-11 min-w-0 flex-1 bg-transparent pr-3 font-mono text-sm focus:outline-none"
                />
              </span>
              <p id="slug-hint" className="text-sm text-ink-muted">
                {data.post?.firstPublished
                  ? "Changing it keeps the old address working: readers are sent to the new one."
                  : slugFollows &&
                      hydrated &&
                      values.title.trim() &&
                      values.slug !== suggestSlug(values.title)
                    ? `Another post has /blog/${suggestSlug(values.title)}, so this one takes the next free address, /blog/${values.slug}. Suggested from the title until you change it.`
                    : "Suggested from the title until you change it."}
              </p>
              {errors.slug ? (
                <p id="slug-error" className="text-sm font-semibold text-danger">
                  {errors.slug}
                </p>
              ) : null}
            </div>
            <Field id="kind" name="kind" label="Post type">
              {(control) => (
                <select
                  {...control}
                  value={values.kind}
                  onChange={(event) => update({ kind: event.currentTarget.value })}
                  className="h-11 w-full rounded-md border border-ink-muted bg-white px-3 text-base"
                >
                  <option value="article">Article</option>
                  <option value="press">Press item</option>
                </select>
              )}
            </Field>
            <div className={cn(hydrated && values.kind === "press" && "hidden")}>
              <Field
                id="category"
                name="category"
                label="Category"
                hint={hydrated ? undefined : "Articles only."}
                error={errors.category}
              >
                {(control) => (
                  <select
                    {...control}
                    value={values.category}
                    onChange={(event) => update({ category: event.currentTarget.value })}
                    className="h-11 w-full rounded-md border border-ink-muted bg-white px-3 text-base"
                  >
                    {ARTICLE_CATEGORIES.map((category) => (
                      <option key={category}>{category}</option>
                    ))}
                    {values.kind === "press" ? <option>Press Coverage</option> : null}
                  </select>
                )}
              </Field>
            </div>
          </div>
        </div>

        <BodyEditor
          value={values.body}
          onChange={(body) => update({ body })}
          images={images}
          onImage={(image) => setExtraImages((current) => [...current, image])}
          error={errors.body}
          serverPreview={actionData?.kind === "preview" ? actionData.bodyPreview : data.bodyPreview}
        />

        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2 xl:grid-cols-3">
          <SectionCard id="summary-title" title="Summary and details">
            <div className="mt-4 grid gap-4">
              {field.textarea("excerpt", {
                label: "Summary",
                hint: "One or two sentences for the blog list, the feed and search results.",
                max: POST_LIMITS.excerpt,
                rows: 4,
              })}
              {field.input("tags", {
                label: "Tags",
                hint: `Separated by commas, at most ${POST_LIMITS.tags}.`,
                max: POST_LIMITS.tags * (POST_LIMITS.tag + 2),
              })}
              {field.input("author", {
                label: "Author",
                hint: "The name readers see. Pick a colleague or type any name; empty: Clausebridge.",
                max: POST_LIMITS.author,
                list: "staff-authors",
              })}
              <datalist id="staff-authors">
                {data.authors.map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
            </div>
          </SectionCard>

          <SectionCard id="cover-title" title="Cover image">
            <div className="mt-4">
              <CoverField
                coverImage={values.coverImage}
                coverAlt={values.coverAlt}
                images={images}
                library={data.library}
                onChange={(change, image) => {
                  if (image) setExtraImages((current) => [...current, image]);
                  update(change);
                }}
                errors={errors}
              />
            </div>
          </SectionCard>

          <SectionCard id="seo-title" title="Search engines">
            <div className="mt-4 grid gap-4">
              {field.input("seoTitle", {
                label: "Search title",
                hint: "Empty: the title.",
                max: POST_LIMITS.seoTitle,
                counter: true,
              })}
              {field.textarea("seoDescription", {
                label: "Search description",
                hint: "Empty: the summary.",
                max: POST_LIMITS.seoDescription,
                rows: 3,
                counter: true,
              })}
              <SearchSnippet values={values} />
            </div>
          </SectionCard>

          <div className={cn(hydrated && values.kind !== "press" && "hidden")}>
            <SectionCard id="press-title" title="Press item">
              <div className="mt-4 grid gap-4">
                {hydrated ? null : (
                  <p className="text-sm text-ink-muted">For press items only: articles leave these empty.</p>
                )}
                {field.input("outlet", { label: "Publication", max: POST_LIMITS.outlet })}
                {field.input("originalUrl", {
                  label: "Original article",
                  hint: "Its full address, starting with https://",
                  max: POST_LIMITS.originalUrl,
                  type: "url",
                })}
                {field.input("note", {
                  label: "Note",
                  hint: "A short line, such as “Featured on page 12”.",
                  max: POST_LIMITS.note,
                })}
                <label className="flex items-center gap-3 text-sm font-semibold">
                  <input
                    type="checkbox"
                    name="featured"
                    checked={values.featured === "on"}
                    onChange={(event) => update({ featured: event.currentTarget.checked ? "on" : "" })}
                    className="size-5"
                  />
                  Featured: shown first among the press items
                </label>
              </div>
            </SectionCard>
          </div>

          {data.preview ? <PreviewLinkCard preview={data.preview} /> : null}

          {data.post ? (
            <SectionCard id="history-title" title="History">
              <div className="mt-3 grid gap-2 text-sm">
                {data.lastSaved ? (
                  <p>
                    Last saved by <strong>{data.lastSaved.by}</strong> on {data.lastSaved.at}.
                  </p>
                ) : null}
                <p className="text-ink-muted">Every save is kept: compare any two and restore one.</p>
                <Link
                  to={revisionsPath(data.post.id)}
                  className="font-semibold text-brand underline underline-offset-2"
                >
                  Revisions
                </Link>
                {data.deletable ? (
                  <Link
                    to={`${editorPath(data.post.id)}?delete`}
                    className="mt-2 font-semibold text-danger underline underline-offset-2"
                  >
                    Delete this draft…
                  </Link>
                ) : null}
              </div>
            </SectionCard>
          ) : null}
        </div>
      </div>

      <AlertDialog open={blocker.state === "blocked"}>
        <AlertDialogContent
          title="Leave without saving?"
          description="Your latest changes are not saved yet. If you leave now, they are lost."
          onEscapeKeyDown={() => blocker.reset?.()}
        >
          <AlertDialogCancel asChild>
            <Button variant="outline" onClick={() => blocker.reset?.()}>
              Stay and keep editing
            </Button>
          </AlertDialogCancel>
          <Button variant="danger" onClick={() => blocker.proceed?.()}>
            Leave
          </Button>
        </AlertDialogContent>
      </AlertDialog>
    </Form>
  );
}

/** The bar at the top: back to the list, the state of the post and of its saving, and the buttons. */
function EditorBar({
  data,
  dirty,
  hydrated,
  autosave,
  live,
  busy,
  scheduleError,
}: {
  data: EditorLoaderData;
  dirty: boolean;
  hydrated: boolean;
  autosave: AutosaveState;
  live: boolean;
  busy: boolean;
  scheduleError?: string;
}) {
  const saving = usePendingIntent("save");
  const previewing = usePendingIntent("preview");
  const status = data.post?.status ?? "draft";
  return (
    <div className="sticky top-14 z-20 border-b border-line bg-white/95 backdrop-blur wide:top-0">
      {/* On a phone: back and the buttons on one line, the post's state in a short line below. */}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2 sm:px-6">
        <Link
          to={CONTENT_PATH}
          className="inline-flex h-11 min-w-11 items-center gap-1 font-semibold text-brand underline-offset-2 hover:underline"
        >
          <span aria-hidden="true">←</span>
          {/* On a phone the arrow alone, so the buttons fit beside it. */}
          <span className="max-sm:sr-only">Content</span>
        </Link>
        <div className="order-last flex w-full min-w-0 items-center gap-x-3 overflow-hidden whitespace-nowrap md:order-none md:overflow-visible md:w-auto md:flex-1 md:flex-wrap md:gap-y-1 md:whitespace-normal">
          <h1 className="sr-only">{data.post ? `Edit “${data.values.title}”` : "New post"}</h1>
          <PostStatusBadge status={status} className="shrink-0" />
          {data.post?.status === "scheduled" && data.post.publishAtText ? (
            <span className="min-w-0 truncate text-sm text-ink-muted md:whitespace-normal">
              Goes live {data.post.publishAtText}
            </span>
          ) : null}
          <SaveState hydrated={hydrated} dirty={dirty} autosave={autosave} live={live} isNew={!data.post} />
        </div>
        <div className="ml-auto flex flex-wrap items-center justify-end gap-2">
          {hydrated ? null : (
            <Button type="submit" name="intent" value="preview" variant="ghost">
              {previewing ? "Previewing…" : "Preview"}
            </Button>
          )}
          <Button
            type="submit"
            name="intent"
            value="save"
            variant={live ? "primary" : "outline"}
            disabled={busy && hydrated}
          >
            {saving ? "Saving…" : live ? "Update" : data.post ? "Save" : "Save draft"}
          </Button>
          <PublishMenu
            post={data.post}
            scheduleDefault={data.scheduleDefault}
            scheduleError={scheduleError}
            disabled={busy && hydrated}
          />
        </div>
      </div>
    </div>
  );
}

/** "Saved at 10:42 AM", "Saving…", "Unsaved changes", or why autosave did not work. */
function SaveState({
  hydrated,
  dirty,
  autosave,
  live,
  isNew,
}: {
  hydrated: boolean;
  dirty: boolean;
  autosave: AutosaveState;
  live: boolean;
  isNew: boolean;
}) {
  let text: ReactNode = null;
  let tone = "text-ink-muted";
  if (!hydrated) text = isNew ? null : "Save to keep your changes";
  else if (autosave.kind === "saving") text = "Saving…";
  else if (autosave.kind === "failed") {
    text = autosave.message;
    tone = "font-semibold text-danger";
  } else if (dirty && live)
    text = "Unsaved changes: this post is live, so it is saved only when you press Update";
  else if (dirty) text = isNew ? "Not saved yet: it saves itself once it has a title" : "Unsaved changes";
  else if (autosave.kind === "saved") text = `Saved at ${autosave.at}`;
  else if (!isNew) text = "All changes saved";
  return (
    <p
      role="status"
      aria-live="polite"
      title={typeof text === "string" ? text : undefined}
      className={cn(
        "min-w-0 text-sm md:whitespace-normal",
        // Why a save failed is read in full, on a phone too (it wraps); the routine states stay on one line.
        autosave.kind === "failed" && hydrated ? "whitespace-normal" : "truncate",
        tone,
      )}
      data-save-state
    >
      {text}
    </p>
  );
}

/** Every field the server refused or a publication still needs, with a link to each. */
function ProblemList({ errors }: { errors: PostFieldErrors & { publishAt?: string } }) {
  const entries = Object.entries(errors).filter(([name]) => name !== "publishAt" && name !== "form");
  if (entries.length === 0) return null;
  return (
    <div role="alert" className="rounded-lg border border-danger bg-red-50 px-4 py-3 text-danger">
      <p className="font-semibold">Please check these:</p>
      <ul className="mt-1 list-disc pl-5">
        {entries.map(([name, message]) => (
          <li key={name}>
            <a href={`#${name}`} className="underline underline-offset-2">
              {POST_FIELD_LABELS[name as keyof typeof POST_FIELD_LABELS] ?? name}
            </a>
            : {message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** After a conflict, "edit their version": yours beside it, to copy from. */
function MergePanel({ data, yours }: { data: EditorLoaderData; yours: EditorValues }) {
  const diff = diffPosts(fieldsOfValues(data.values), fieldsOfValues(yours));
  return (
    <section
      aria-labelledby="merge-title"
      className="grid gap-4 rounded-xl border border-accent bg-amber-50 p-4 sm:p-6"
    >
      <h2 id="merge-title" className="text-lg font-semibold">
        You are editing their version
      </h2>
      <p className="text-sm leading-6">
        Your version was not saved. Below is what it changes in theirs, and your whole text: copy what you
        need into the form, then save.
      </p>
      <details>
        <summary className="cursor-pointer font-semibold text-brand">What yours changes</summary>
        <div className="mt-3">
          <PostDiffView diff={diff} beforeLabel="Theirs (in the form)" afterLabel="Yours (not saved)" />
        </div>
      </details>
      <VersionText title="Your text (not saved)" text={yours.body} id="merge-yours" />
    </section>
  );
}

/** A Google-like snippet: how the post may look in search results. */
function SearchSnippet({ values }: { values: EditorValues }) {
  const title = values.seoTitle || values.title || "The title";
  const description = values.seoDescription || values.excerpt || "The summary shows here.";
  return (
    <figure className="grid gap-0.5 rounded-lg border border-line bg-surface-muted p-3 text-sm">
      <figcaption className="mb-1 text-xs font-semibold tracking-wide text-ink-muted uppercase">
        In search results
      </figcaption>
      <span className="truncate text-xs text-ink-muted">
        clausebridge.co.uk › blog › {values.slug || "…"}
      </span>
      <span className="line-clamp-1 text-base text-blue-800">{title}</span>
      <span className="line-clamp-2 text-ink-muted">{description}</span>
    </figure>
  );
}

/** The private preview link, to send for review, with a copy button and when it stops working. */
function PreviewLinkCard({ preview }: { preview: NonNullable<EditorLoaderData["preview"]> }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  return (
    <SectionCard id="preview-link-title" title="Preview link">
      <div className="mt-3 grid gap-3 text-sm">
        <p className="text-ink-muted">
          Anyone with this link can read the last saved version, without signing in. Search engines do not see
          it.
        </p>
        <label htmlFor="preview-url" className="sr-only">
          Preview link
        </label>
        <div className="flex gap-2">
          <input
            id="preview-url"
            readOnly
            value={preview.url}
            onFocus={(event) => event.currentTarget.select()}
            className="h-11 min-w-0 flex-1 rounded-md border border-ink-muted bg-surface-muted px-3 font-mono text-xs"
          />
          {hydrated ? (
            <Button
              type="button"
              variant="outline"
              onClick={async () => {
                try {
                  await navigator.clipboard.writeText(preview.url);
                  setCopied(true);
                  setTimeout(() => setCopied(false), 2500);
                } catch {
                  document.getElementById("preview-url")?.focus();
                }
              }}
            >
              {copied ? "Copied" : "Copy"}
            </Button>
          ) : null}
        </div>
        <p>
          Works until <strong>{preview.expires}</strong>.{" "}
          <a
            href={preview.url}
            target="_blank"
            rel="noopener"
            className="font-semibold text-brand underline underline-offset-2"
          >
            Open it<span className="sr-only"> (in a new tab)</span>
          </a>
        </p>
        <p aria-live="polite" className="sr-only">
          {copied ? "Link copied" : ""}
        </p>
      </div>
    </SectionCard>
  );
}
