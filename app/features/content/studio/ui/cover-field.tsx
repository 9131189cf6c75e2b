import { useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { POST_LIMITS } from "../../posts/post-fields.ts";
import { mediaIdOf } from "../../posts/post-schema.ts";
import { COVER_PICK_FIELD } from "../post-form.ts";
import type { PreviewImage } from "../post-preview.ts";
import { ImagePicker, thumbnailUrl } from "./image-picker.tsx";

// A post's cover image and its description (issue 24). With JavaScript: the image shown, Change
// (upload or pick, image-picker.tsx) and Remove. Without: the library's newest images as a choice in
// the form itself (uploading needs the script).

export function CoverField({
  coverImage,
  coverAlt,
  images,
  library,
  onChange,
  errors,
}: {
  coverImage: string;
  coverAlt: string;
  images: ReadonlyMap<number, PreviewImage>;
  /** The newest library images, for choosing without JavaScript. */
  library: readonly PreviewImage[];
  onChange: (change: { coverImage?: string; coverAlt?: string }, image?: PreviewImage) => void;
  errors: { coverImage?: string; coverAlt?: string };
}) {
  const hydrated = useHydrated();
  const [picking, setPicking] = useState(false);
  const id = mediaIdOf(coverImage || null);
  const image = id === null ? undefined : images.get(id);
  const legacy = coverImage && id === null ? coverImage : null;

  return (
    <div className="grid gap-4">
      <input type="hidden" name="coverImage" value={coverImage} />
      {image ? (
        <img
          src={thumbnailUrl(image)}
          alt={coverAlt || image.alt || "The cover image"}
          width={image.width}
          height={image.height}
          className="aspect-[16/9] h-auto w-full rounded-lg border border-line bg-surface-muted object-cover"
        />
      ) : legacy ? (
        <img
          src={legacy}
          alt={coverAlt || "The cover image"}
          className="aspect-[16/9] h-auto w-full rounded-lg border border-line bg-white object-contain p-4"
        />
      ) : (
        <p className="grid aspect-[16/9] place-items-center rounded-lg border border-dashed border-ink-muted bg-surface-muted px-4 text-center text-sm text-ink-muted">
          No cover image. Lists and shared links then show the site's own card.
        </p>
      )}
      {errors.coverImage ? <p className="text-sm font-semibold text-danger">{errors.coverImage}</p> : null}

      {hydrated ? (
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => setPicking(true)}>
            {coverImage ? "Change image" : "Choose image"}
          </Button>
          {coverImage ? (
            <Button type="button" variant="ghost" size="sm" onClick={() => onChange({ coverImage: "" })}>
              Remove
            </Button>
          ) : null}
        </div>
      ) : (
        <fieldset className="grid gap-2">
          <legend className="text-sm font-semibold">Choose from the library</legend>
          <ul className="grid max-h-72 grid-cols-2 gap-2 overflow-y-auto sm:grid-cols-3">
            <li>
              <label className="flex h-full items-center gap-2 rounded-md border border-line p-2 text-sm">
                <input type="radio" name={COVER_PICK_FIELD} value="none" defaultChecked={!coverImage} />
                No cover
              </label>
            </li>
            {library.map((item) => (
              <li key={item.id}>
                <label className="grid gap-1 rounded-md border border-line p-2 text-sm">
                  <span className="flex items-center gap-2">
                    <input
                      type="radio"
                      name={COVER_PICK_FIELD}
                      value={String(item.id)}
                      defaultChecked={coverImage === String(item.id)}
                    />
                    <span className="truncate">{item.alt || `Image #${item.id}`}</span>
                  </span>
                  <img
                    src={thumbnailUrl(item)}
                    alt=""
                    width={item.width}
                    height={item.height}
                    loading="lazy"
                    className="aspect-[4/3] h-auto w-full rounded bg-surface-muted object-cover"
                  />
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}

      <Field
        id="coverAlt"
        name="coverAlt"
        label="Image description"
        hint="What the cover shows, for people who cannot see it."
        error={errors.coverAlt}
      >
        {(control) => (
          <Input
            {...control}
            value={coverAlt}
            maxLength={POST_LIMITS.coverAlt}
            onChange={(event) => onChange({ coverAlt: event.currentTarget.value })}
          />
        )}
      </Field>

      <ImagePicker
        open={picking}
        onOpenChange={setPicking}
        title="Choose the cover image"
        description="Shown at the top of the article, in lists and when the post is shared."
        onPick={({ image: picked, alt }) =>
          onChange({ coverImage: String(picked.id), ...(coverAlt ? {} : { coverAlt: alt }) }, picked)
        }
      />
    </div>
  );
}
