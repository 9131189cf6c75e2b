// The enhancement script of every public page (ADR 013): plain TypeScript, no React. Each behaviour
// lives beside the markup it enhances and is the only implementation of it; the form pages run this
// script too, next to their form's island. A module script runs once the document is parsed.
import { enhanceAnchorLinks } from "./components/site/anchor-link.enhance.ts";
import { enhanceNewTabLinks } from "./components/site/new-tab-link.enhance.ts";
import { enhanceMobileMenu, revealAdminLink } from "./components/site/site-header.enhance.ts";
import { enhanceTooltips } from "./components/ui/tooltip.ts";
import { enhanceShareCard } from "./features/content/share-card.enhance.ts";

enhanceMobileMenu(document);
revealAdminLink(document);
enhanceAnchorLinks(document);
enhanceTooltips(document);
enhanceShareCard(document);
enhanceNewTabLinks(document);

// For tests and monitoring: the page's behaviours are in place (islands mark themselves).
document.documentElement.dataset.enhanced = "true";
