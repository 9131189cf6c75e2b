import type { MetaDescriptor } from "react-router";
import { absoluteUrl, publicUrl } from "#app/lib/site/public-url.ts";
import { formatAddress, site } from "#app/lib/site/site.ts";

export type PageMeta = {
  /** The page's own title; the site title is appended (the home page passes none). */
  title?: string;
  description: string;
  /** The canonical path, e.g. `/blog/some-slug`. */
  path: string;
  type?: "website" | "article";
  /** Extra JSON-LD objects, e.g. an Article for a blog post. */
  jsonLd?: Record<string, unknown>[];
  noIndex?: boolean;
};

export const OG_IMAGE_PATH = "/og-image.png";

/** The full document title: 'Problem | AI-Powered Contract Management', or the site title alone. */
export function pageTitle(title?: string): string {
  return title ? `${title} | ${site.title}` : site.title;
}

export function organizationJsonLd(): Record<string, unknown> {
  const { company } = site;
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: company.legalName,
    brand: site.productName,
    url: `${publicUrl}/`,
    logo: absoluteUrl("/logo.svg"),
    email: company.email,
    telephone: company.phone.e164,
    address: {
      "@type": "PostalAddress",
      streetAddress: company.address.street,
      addressLocality: company.address.locality,
      postalCode: company.address.postalCode,
      addressCountry: company.address.countryCode,
    },
    sameAs: [site.social.linkedIn],
    description: `${site.productName} is an AI-powered contract management platform for construction businesses. ${formatAddress()}.`,
  };
}

/** Title, description, canonical URL, Open Graph, Twitter and JSON-LD for one page. */
export function getMeta(page: PageMeta): MetaDescriptor[] {
  const title = pageTitle(page.title);
  const url = absoluteUrl(page.path);
  const image = absoluteUrl(OG_IMAGE_PATH);
  const descriptors: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.productName },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:locale", content: "en_GB" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:site", content: site.social.twitterHandle },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: image },
    { "script:ld+json": organizationJsonLd() },
  ];
  for (const item of page.jsonLd ?? []) descriptors.push({ "script:ld+json": item });
  if (page.noIndex) descriptors.push({ name: "robots", content: "noindex" });
  return descriptors;
}
