import { site } from "#app/lib/site/site.ts";

export type ShareNetwork = "facebook" | "twitter" | "linkedin" | "email";

export type ShareLink = {
  network: ShareNetwork;
  /** Accessible name and tooltip, e.g. 'Share on Facebook'. */
  label: string;
  href: string;
  /** Social networks open in a popup; email goes to the visitor's mail client. */
  popup: boolean;
};

/** Share URLs for one article: Facebook, Twitter, LinkedIn and email, in that order. */
export function getShareLinks({
  url,
  title,
  excerpt,
}: {
  url: string;
  title: string;
  excerpt?: string;
}): ShareLink[] {
  const encodedUrl = encodeURIComponent(url);
  // Hashtags are plain words, so the commas stay literal as Twitter documents them.
  const hashtags = site.shareHashtags.map(encodeURIComponent).join(",");
  // encodeURIComponent, not URLSearchParams: mail clients show '+' literally instead of a space.
  const subject = encodeURIComponent(title);
  const body = encodeURIComponent([excerpt, `Read the article: ${url}`].filter(Boolean).join("\n\n"));
  return [
    {
      network: "facebook",
      label: "Share on Facebook",
      href: `https://www.facebook.com/sharer/sharer.php?u=${encodedUrl}`,
      popup: true,
    },
    {
      network: "twitter",
      label: "Share on Twitter",
      href: `https://twitter.com/intent/tweet?text=${encodeURIComponent(title)}&url=${encodedUrl}&hashtags=${hashtags}`,
      popup: true,
    },
    {
      network: "linkedin",
      label: "Share on LinkedIn",
      href: `https://www.linkedin.com/sharing/share-offsite/?url=${encodedUrl}`,
      popup: true,
    },
    {
      network: "email",
      label: "Share by email",
      href: `mailto:?subject=${subject}&body=${body}`,
      popup: false,
    },
  ];
}
