import { expect, test } from "vitest";
import { getShareLinks } from "./share-links.ts";

const links = getShareLinks({
  url: "https://www.clausebridge.co.uk/blog/some-article",
  title: "Retention & notices: a guide",
  excerpt: "Why it matters.",
});
const byNetwork = Object.fromEntries(links.map((link) => [link.network, link]));

test("offers Facebook, Twitter, LinkedIn and email, each with an accessible label", () => {
  expect(links.map((link) => link.label)).toEqual([
    "Share on Facebook",
    "Share on Twitter",
    "Share on LinkedIn",
    "Share by email",
  ]);
});

test("Twitter's intent carries the text, the URL and the site's hashtags", () => {
  const href = byNetwork.twitter?.href ?? "";
  expect(href).toContain("https://twitter.com/intent/tweet?");
  expect(href).toContain("text=Retention%20%26%20notices%3A%20a%20guide");
  expect(href).toContain("url=https%3A%2F%2Fwww.clausebridge.co.uk%2Fblog%2Fsome-article");
  expect(href).toContain("hashtags=construction,contractmanagement,efficiency");
});

test("Facebook and LinkedIn share the encoded URL in a popup", () => {
  expect(byNetwork.facebook).toMatchObject({
    popup: true,
    href: "https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fwww.clausebridge.co.uk%2Fblog%2Fsome-article",
  });
  expect(byNetwork.linkedin?.href).toBe(
    "https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Fwww.clausebridge.co.uk%2Fblog%2Fsome-article",
  );
});

test("email is a mailto link with an encoded subject and body, no popup", () => {
  const email = byNetwork.email;
  expect(email?.popup).toBe(false);
  const url = new URL(email?.href ?? "");
  expect(url.protocol).toBe("mailto:");
  expect(email?.href).not.toContain("+");
  expect(url.searchParams.get("subject")).toBe("Retention & notices: a guide");
  expect(url.searchParams.get("body")).toBe(
    "Why it matters.\n\nRead the article: https://www.clausebridge.co.uk/blog/some-article",
  );
});
