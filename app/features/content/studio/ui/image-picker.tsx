import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent } from "#app/components/ui/dialog.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { failureMessage, NETWORK_ERROR } from "#app/lib/api-client.ts";
import { MEDIA_ALT_MAX_CHARS, MEDIA_MAX_BYTES, MEDIA_MESSAGES } from "../../media/media-rules.ts";
import type { PreviewImage } from "../post-preview.ts";

// Choosing an image for a post (issue 24): upload one (JPEG, PNG, WebP or AVIF, through the media
// API, which checks and converts it off the event loop) or pick one from the library. The editor
// uses it for the cover and to put an image into the text at the cursor. Needs JavaScript; without
// it the cover is chosen from a list in the form (cover-field.tsx).

type Picked = { image: PreviewImage; alt: string };

const ACCEPT = "image/jpeg,image/png,image/webp,image/avif";

/** The smallest variant that still looks sharp as a thumbnail, else the image's own address. */
export function thumbnailUrl(image: PreviewImage): string {
  const fallback = image.variants.filter((variant) => variant.format === "jpeg" || variant.format === "png");
  return [...fallback].sort((a, b) => a.width - b.width)[0]?.url ?? image.url;
}

type LibraryPage = { items: PreviewImage[]; nextBefore: number | null };

export function ImagePicker({
  open,
  onOpenChange,
  title,
  description,
  onPick,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  onPick: (picked: Picked) => void;
}) {
  const ids = useId();
  const [library, setLibrary] = useState<LibraryPage | null>(null);
  const [libraryError, setLibraryError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState("");
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);

  async function loadLibrary(before?: number) {
    setLibraryError(null);
    try {
      const query = before ? `?before=${before}` : "";
      const response = await fetch(`/api/admin/media${query}`, { headers: { Accept: "application/json" } });
      if (!response.ok) {
        setLibraryError(await failureMessage(response));
        return;
      }
      const page = (await response.json()) as LibraryPage;
      setLibrary((current) =>
        before && current ? { items: [...current.items, ...page.items], nextBefore: page.nextBefore } : page,
      );
    } catch {
      setLibraryError(NETWORK_ERROR);
    }
  }

  // The library is read each time the picker opens: a colleague may have uploaded since.
  // biome-ignore lint/correctness/useExhaustiveDependencies: loadLibrary only sets state
  useEffect(() => {
    if (open) void loadLibrary();
  }, [open]);

  function reset() {
    setFile(null);
    setAlt("");
    setUploadError(null);
  }

  async function upload(event: FormEvent) {
    event.preventDefault();
    if (uploading) return;
    if (!file) {
      setUploadError(MEDIA_MESSAGES.empty);
      return;
    }
    if (file.size > MEDIA_MAX_BYTES) {
      setUploadError(MEDIA_MESSAGES.tooLarge);
      return;
    }
    setUploading(true);
    setUploadError(null);
    try {
      const body = new FormData();
      body.set("file", file);
      body.set("alt", alt);
      const response = await fetch("/api/admin/media", { method: "POST", body });
      if (!response.ok) {
        setUploadError(await failureMessage(response));
        return;
      }
      const image = (await response.json()) as PreviewImage & { notices?: string[] };
      if (image.notices?.length) toast({ title: "Image uploaded", description: image.notices.join(" ") });
      onPick({ image, alt: alt.trim() || image.alt });
      reset();
      onOpenChange(false);
    } catch {
      setUploadError(NETWORK_ERROR);
    } finally {
      setUploading(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
    >
      <DialogContent title={title} description={description}>
        {/* Not inside the editor's form: the dialog is rendered at the end of the page. */}
        <form onSubmit={upload} className="grid gap-3 rounded-lg border border-line p-4" noValidate>
          <h3 className="font-semibold">Upload an image</h3>
          <div className="grid gap-1.5">
            <label htmlFor={`${ids}-file`} className="text-sm font-semibold">
              Image file
            </label>
            <p id={`${ids}-file-hint`} className="text-sm text-ink-muted">
              JPEG, PNG, WebP or AVIF, up to {MEDIA_MAX_BYTES / 1024 / 1024} MB. Location and camera details
              are removed.
            </p>
            <input
              id={`${ids}-file`}
              type="file"
              accept={ACCEPT}
              aria-describedby={`${ids}-file-hint`}
              onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
              className="block w-full text-sm file:mr-3 file:h-10 file:rounded-md file:border file:border-brand file:bg-white file:px-4 file:font-semibold file:text-brand"
            />
          </div>
          <div className="grid gap-1.5">
            <label htmlFor={`${ids}-alt`} className="text-sm font-semibold">
              Description (alt text)
            </label>
            <p id={`${ids}-alt-hint`} className="text-sm text-ink-muted">
              What the image shows, for people who cannot see it.
            </p>
            <Input
              id={`${ids}-alt`}
              value={alt}
              maxLength={MEDIA_ALT_MAX_CHARS}
              aria-describedby={`${ids}-alt-hint`}
              onChange={(event) => setAlt(event.currentTarget.value)}
            />
          </div>
          {uploadError ? (
            <p role="alert" className="text-sm font-semibold text-danger">
              {uploadError}
            </p>
          ) : null}
          <div>
            <Button type="submit" disabled={uploading}>
              {uploading ? "Uploading…" : "Upload and use"}
            </Button>
          </div>
        </form>

        <section aria-labelledby={`${ids}-library`} className="mt-6">
          <h3 id={`${ids}-library`} className="font-semibold">
            Or choose from the library
          </h3>
          {libraryError ? (
            <p role="alert" className="mt-2 text-sm font-semibold text-danger">
              The library could not be loaded: {libraryError}
            </p>
          ) : library === null ? (
            <p className="mt-2 text-sm text-ink-muted" role="status">
              Loading the library…
            </p>
          ) : library.items.length === 0 ? (
            <p className="mt-2 text-sm text-ink-muted">No images yet: upload the first one above.</p>
          ) : (
            <>
              <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 md:grid-cols-4">
                {library.items.map((image) => (
                  <li key={image.id}>
                    <button
                      type="button"
                      onClick={() => {
                        onPick({ image, alt: image.alt });
                        onOpenChange(false);
                      }}
                      className="group grid w-full gap-1 rounded-lg border border-line p-1.5 text-left hover:border-brand focus-visible:outline-3 focus-visible:outline-offset-2"
                    >
                      <img
                        src={thumbnailUrl(image)}
                        alt=""
                        width={image.width}
                        height={image.height}
                        loading="lazy"
                        className="aspect-[4/3] h-auto w-full rounded bg-surface-muted object-cover"
                      />
                      <span className="truncate px-0.5 text-xs text-ink-muted group-hover:text-ink">
                        <span className="sr-only">Use image: </span>
                        {image.alt || `Image #${image.id}`}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
              {library.nextBefore ? (
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  className="mt-3"
                  disabled={loadingMore}
                  onClick={async () => {
                    setLoadingMore(true);
                    await loadLibrary(library.nextBefore ?? undefined);
                    setLoadingMore(false);
                  }}
                >
                  {loadingMore ? "Loading…" : "Show older images"}
                </Button>
              ) : null}
            </>
          )}
        </section>
      </DialogContent>
    </Dialog>
  );
}
