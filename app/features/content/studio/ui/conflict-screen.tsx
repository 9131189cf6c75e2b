import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { ConflictData } from "../post-conflict.ts";
import { EDITOR_FIELDS } from "../post-form.ts";
import { PostDiffView } from "./diff-view.tsx";

// When someone else saved the post after this page opened it (issue 24: two editors never lose each
// other's work). Nothing of yours was saved; both versions are shown with what differs, and three
// ways on: keep editing the latest with your text beside it to copy from, save yours over it (on
// purpose, as a new revision; theirs stays in the revisions), or throw yours away. Plain forms: the
// same without JavaScript. Your text travels in the form, so nothing is lost on the way.

export function ConflictScreen({
  conflict,
  action,
  onDiscard,
}: {
  conflict: ConflictData;
  /** The editor's address (the forms post there). */
  action: string;
  /** The script forgets your version before the page reloads the latest. */
  onDiscard?: () => void;
}) {
  const who = conflict.latestBy.by
    ? `Last saved by ${conflict.latestBy.by} on ${conflict.latestBy.at}.`
    : `Last saved on ${conflict.latestBy.at}.`;
  const heading = useRef<HTMLHeadingElement>(null);
  // The screen replaces the editor where the person was: start them at its top, read its title.
  useEffect(() => {
    window.scrollTo({ top: 0 });
    heading.current?.focus();
  }, []);
  const yours = (
    <>
      {EDITOR_FIELDS.map((field) => (
        <input key={field} type="hidden" name={field} value={conflict.yours[field]} />
      ))}
      <input type="hidden" name="revision" value={conflict.latestRevision} />
    </>
  );
  return (
    <section aria-labelledby="conflict-title" className="grid gap-6">
      <div className="grid gap-2">
        <h1
          id="conflict-title"
          ref={heading}
          tabIndex={-1}
          className="text-2xl font-bold tracking-tight focus:outline-none sm:text-3xl"
        >
          Someone else changed this post
        </h1>
        <Banner tone="error">
          {conflict.message} {who}
        </Banner>
      </div>

      <div className="grid gap-4 rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6">
        <h2 className="text-lg font-semibold">What you can do</h2>
        <div className="grid gap-4 md:grid-cols-3">
          <Form method="post" action={action} className="grid content-start gap-2">
            {yours}
            <Button type="submit" name="intent" value="merge">
              Edit their version
            </Button>
            <p className="text-sm text-ink-muted">
              Open the latest version, with your text beside it to copy what you need.
            </p>
          </Form>
          <Form method="post" action={action} className="grid content-start gap-2">
            {yours}
            <Button type="submit" name="intent" value="overwrite" variant="outline">
              Save mine over theirs
            </Button>
            <p className="text-sm text-ink-muted">
              Your version becomes the latest. Theirs stays in the revisions, where it can be restored.
            </p>
          </Form>
          <div className="grid content-start gap-2">
            <Button asChild variant="ghost" className="border border-line">
              <Link to={action} onClick={onDiscard} replace>
                Discard mine
              </Link>
            </Button>
            <p className="text-sm text-ink-muted">Throw your changes away and reload the latest version.</p>
          </div>
        </div>
      </div>

      <section aria-labelledby="conflict-differences" className="grid gap-3">
        <h2 id="conflict-differences" className="text-lg font-semibold">
          What differs
        </h2>
        <p className="text-sm text-ink-muted">
          Left: theirs, as saved now. Right: yours. In the text, − lines are only in theirs and + lines only
          in yours.
        </p>
        <PostDiffView
          diff={conflict.differences}
          beforeLabel="Theirs (saved)"
          afterLabel="Yours (not saved)"
        />
      </section>

      {conflict.latest.body !== conflict.yours.body ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <VersionText title="Their text (saved)" text={conflict.latest.body} id="theirs" />
          <VersionText title="Your text (not saved)" text={conflict.yours.body} id="yours" />
        </div>
      ) : null}
    </section>
  );
}

export function VersionText({ title, text, id }: { title: string; text: string; id: string }) {
  return (
    <div className="grid min-w-0 gap-2">
      <h3 id={`${id}-title`} className="font-semibold">
        {title}
      </h3>
      <textarea
        readOnly
        aria-labelledby={`${id}-title`}
        value={text}
        rows={12}
        className="block w-full resize-y rounded-lg border border-line bg-surface-muted px-3 py-2 font-mono text-sm leading-6"
      />
    </div>
  );
}
