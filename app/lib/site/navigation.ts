/** Header links in the order of SPEC section 1. */
export const headerLinks = [
  { to: "/", label: "Home" },
  { to: "/problem", label: "The Problem" },
  { to: "/solution", label: "Our Approach" },
  { to: "/features", label: "Features" },
  { to: "/demo", label: "Get a Demo" },
  { to: "/invest", label: "Invest" },
  { to: "/blog", label: "Blog" },
] as const;

/** Footer quick links: sections of the home page (SPEC section 1). */
export const quickLinks = [
  { id: "problem", label: "The Problem" },
  { id: "solution", label: "Our Approach" },
  { id: "features", label: "Features" },
  { id: "demo", label: "Request a Demo" },
] as const;

/** Content pages listed by the related-pages block; the current page is left out. */
export const contentPages = [
  {
    to: "/problem",
    title: "The Contract Management Problem",
    summary: "Why signed contracts stop working for the business the day they are filed away.",
  },
  {
    to: "/solution",
    title: "Our Approach",
    summary: "Six principles that turn a pile of documents into one current, readable record.",
  },
  {
    to: "/features",
    title: "Features",
    summary: "Consolidation, plain language, date tracking, search, access control and insights.",
  },
  {
    to: "/blog",
    title: "Blog",
    summary: "Articles and press coverage on contract management in construction.",
  },
  {
    to: "/demo",
    title: "Request a Demo",
    summary: "See your own contracts consolidated and explained in a 30-minute session.",
  },
] as const;
