import { useDeferredValue, useMemo, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { POST_LIMITS } from "../../posts/post-fields.ts";
import { type BodyPreview, browserPreview, imageMarkdown, type PreviewImage } from "../post-preview.ts";
import { ImagePicker } from "./image-picker.tsx";

// The post's text (issue 24, ADR 027): markdown in a plain textarea beside its preview, rendered by
// the public page's own renderer. Side by side from 1280 px; on narrower screens Write and Preview
// are two views of one place. Without JavaScript both are shown one above the other and the preview
// is the server's, after the Preview button.

export function BodyEditor({
  value,
  onChange,
  images,
  onImage,
  error,
  describedBy,
  serverPreview,
}: {
  value: string;
  /** The preview the server rendered for the text it sent: the first paint's, with no render here. */
  serverPreview?: BodyPreview;
  onChange: (next: string) => void;
  images: ReadonlyMap<number, PreviewImage>;
  /** A library image the person put into the text (the preview needs its files). */
  onImage: (image: PreviewImage) => void;
  error?: string;
  describedBy?: string;
}) {
  const hydrated = useHydrated();
  const [view, setView] = useState<"write" | "preview">("write");
  const [picking, setPicking] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  // Typing stays smooth on a long text: the preview catches up when the browser is free.
  const deferred = useDeferredValue(value);
  const { html, problem } = useMemo(
    () => browserPreview(deferred, images, serverPreview, hydrated),
    [deferred, images, serverPreview, hydrated],
  );

  function insertAtCursor(markdown: string) {
    const box = textarea.current;
    const start = box?.selectionStart ?? value.length;
    const end = box?.selectionEnd ?? start;
    // An image is a paragraph of its own: blank lines around it unless the text already has them.
    const before = value.slice(0, start);
    const after = value.slice(end);
    const lead = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
    const trail = after === "" || after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
    const inserted = `${lead}${markdown}${trail}`;
    onChange(before + inserted + after);
    const caret = start + inserted.length;
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(caret, caret);
    });
  }

  const showWrite = !hydrated || view === "write";
  const showPreview = !hydrated || view === "preview";
  const errorId = error ? "body-error" : undefined;

  return (
    <section aria-labelledby="body-label" className="grid min-w-0 gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="body-label" className="text-lg font-semibold">
          <label htmlFor="body">Text</label>
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          {hydrated ? (
            <fieldset className="flex rounded-lg bg-surface-muted p-0.5 xl:hidden">
              <legend className="sr-only">Show</legend>
              {(["write", "preview"] as const).map((name) => (
                <button
                  key={name}
                  type="button"
                  aria-pressed={view === name}
                  onClick={() => setView(name)}
                  className={cn(
                    "h-9 rounded-md px-4 text-sm font-semibold",
                    view === name ? "bg-white text-brand shadow-sm" : "text-ink-muted hover:text-ink",
                  )}
                >
                  {name === "write" ? "Write" : "Preview"}
                </button>
              ))}
            </fieldset>
          ) : null}
          {hydrated ? (
            <Button type="button" variant="outline" size="sm" onClick={() => setPicking(true)}>
              Insert image
            </Button>
          ) : null}
        </div>
      </div>

      <details className="group text-sm">
        <summary className="inline-flex min-h-9 cursor-pointer items-center font-semibold text-brand underline-offset-2 hover:underline">
          Markdown help
        </summary>
        <div className="mt-1 rounded-lg border border-line bg-white px-4 py-3">
          <dl className="grid grid-cols-[fit-content(45%)_minmax(0,1fr)] gap-x-4 gap-y-1.5">
            {MARKDOWN_HELP.map(([syntax, meaning]) => (
              <div key={syntax} className="contents">
                <dt>
                  <code className="rounded bg-surface-muted px-1 break-all whitespace-pre-wrap">
                    {syntax}
                  </code>
                </dt>
                <dd className="text-ink-muted">{meaning}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-2 text-ink-muted">
            HTML is shown as text, not run. Links must start with https://, http://, mailto: or /.
          </p>
        </div>
      </details>

      <div className="grid min-w-0 gap-4 xl:grid-cols-2">
        <div className={cn("min-w-0", !showWrite && "hidden xl:block")}>
          <textarea
            ref={textarea}
            id="body"
            name="body"
            value={value}
            onChange={(event) => onChange(event.currentTarget.value)}
            maxLength={POST_LIMITS.body}
            rows={24}
            spellCheck
            aria-invalid={error ? true : undefined}
            aria-describedby={[describedBy, errorId].filter(Boolean).join(" ") || undefined}
            className="block min-h-[28rem] w-full resize-y rounded-lg border border-ink-muted bg-white px-4 py-3 text-base leading-7 text-ink focus-visible:border-brand focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand aria-invalid:border-2 aria-invalid:border-danger xl:h-[calc(100dvh-16rem)]"
          />
          {error ? (
            <p id={errorId} className="mt-1.5 text-sm font-semibold text-danger">
              {error}
            </p>
          ) : null}
        </div>
        <section
          aria-label="Preview"
          className={cn(
            "min-w-0 overflow-y-auto rounded-lg border border-line bg-white px-5 py-4 xl:h-[calc(100dvh-16rem)]",
            !showPreview && "hidden xl:block",
          )}
        >
          <p className="mb-2 text-xs font-semibold tracking-wide text-ink-muted uppercase">
            Preview{hydrated ? "" : " of the text as last sent"}
          </p>
          {problem ? (
            <p role="status" className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950">
              {problem}
            </p>
          ) : null}
          {value.trim() ? (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the public renderer's output, author HTML escaped and unsafe links dropped by it.
            <div data-preview className="prose-body max-w-none" dangerouslySetInnerHTML={{ __html: html }} />
          ) : (
            <p className="text-ink-muted">The text appears here as readers will see it.</p>
          )}
        </section>
      </div>

      <ImagePicker
        open={picking}
        onOpenChange={setPicking}
        title="Insert an image"
        description="It goes into the text where the cursor is, as its own paragraph."
        onPick={({ image, alt }) => {
          onImage(image);
          insertAtCursor(imageMarkdown(image.id, alt));
        }}
      />
    </section>
  );
}

const MARKDOWN_HELP: [string, string][] = [
  ["## Heading", "A section heading (### for a smaller one)"],
  ["**bold**  *italic*", "Bold and italic text"],
  ["[words](https://example.com)", "A link"],
  ["- item", "A bulleted list (1. for a numbered one)"],
  ["> quote", "A quotation"],
  ["![description](media:12)", "An image from the library (Insert image writes it for you)"],
  ['![description](media:12 "Caption")', "The image with a caption under it"],
  ["| Stage | Days |\n|---|---|\n| Notice | 5 |", "A table: a header row, a line of dashes, then the rows"],
  ["`code`  ```", "Code in a line, or a block between lines of ```"],
  ["---", "A dividing line"],
  ["A blank line", "Starts a new paragraph"],
];
