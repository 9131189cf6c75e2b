import { cn } from "#app/lib/cn.ts";

// An image of the content studio's media library on a public page (issue 24): a <picture> whose
// browser picks AVIF, then WebP, then the JPEG (or PNG) every browser shows, at the width the layout
// needs (srcset + sizes). width and height give the box its aspect ratio before a byte arrives, so the
// page does not shift. Plain markup: no client JavaScript.

/** What the media library's API answers for an image (the fields this needs). */
export type ResponsiveImageSource = {
  width: number;
  height: number;
  alt: string;
  variants: readonly { format: string; width: number; height: number; url: string }[];
};

export type ResponsiveImageProps = {
  image: ResponsiveImageSource;
  /**
   * How wide the image is shown, for the browser to pick a width before layout, e.g.
   * "(min-width: 768px) 720px, 100vw" for an article column.
   */
  sizes: string;
  /** Overrides the library's alt text (a cover image's own, say). Empty marks it decorative. */
  alt?: string;
  /** "eager" with fetchPriority "high" for the image that is the page's largest paint (a cover). */
  loading?: "lazy" | "eager";
  fetchPriority?: "high" | "low" | "auto";
  className?: string;
};

const srcSet = (variants: ResponsiveImageSource["variants"]) =>
  [...variants]
    .sort((a, b) => a.width - b.width)
    .map((variant) => `${variant.url} ${variant.width}w`)
    .join(", ");

export function ResponsiveImage({
  image,
  sizes,
  alt,
  loading = "lazy",
  fetchPriority,
  className,
}: ResponsiveImageProps) {
  const of = (...formats: string[]) => image.variants.filter((variant) => formats.includes(variant.format));
  const avif = of("avif");
  const webp = of("webp");
  const fallback = of("jpeg", "png");
  const largest = [...fallback].sort((a, b) => b.width - a.width)[0];
  return (
    <picture>
      {avif.length > 0 ? <source type="image/avif" srcSet={srcSet(avif)} sizes={sizes} /> : null}
      {webp.length > 0 ? <source type="image/webp" srcSet={srcSet(webp)} sizes={sizes} /> : null}
      <img
        src={largest?.url}
        srcSet={fallback.length > 0 ? srcSet(fallback) : undefined}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt ?? image.alt}
        loading={loading}
        decoding="async"
        fetchPriority={fetchPriority}
        className={cn("h-auto max-w-full", className)}
      />
    </picture>
  );
}
