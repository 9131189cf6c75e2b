import { Link } from "react-router";
import { quickLinks } from "#app/lib/site/navigation.ts";
import { site } from "#app/lib/site/site.ts";
import { AnchorLink } from "./anchor-link.tsx";
import { Logo } from "./logo.tsx";

const footerLink = "text-slate-200 underline-offset-4 hover:text-white hover:underline";

export function SiteFooter() {
  const { company } = site;
  return (
    <footer className="bg-brand-strong text-slate-200">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div className="md:col-span-2">
          <Logo inverse />
          <p className="mt-4 max-w-md text-sm leading-6">
            {site.productName} turns signed construction contracts and their amendments into one current,
            plain-language record that the whole business can search and act on.
          </p>
        </div>
        <nav aria-label="Quick links">
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Quick links</h2>
          <ul className="mt-4 space-y-2 text-sm">
            {quickLinks.map((link) => (
              <li key={link.id}>
                <AnchorLink id={link.id} className={footerLink}>
                  {link.label}
                </AnchorLink>
              </li>
            ))}
            <li>
              <Link to="/privacy-policy" className={footerLink}>
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link to="/admin/login" className={footerLink} rel="nofollow">
                Admin Access
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Contact</h2>
          <address className="mt-4 space-y-2 text-sm not-italic">
            <p>
              <a className={footerLink} href={`mailto:${company.email}`}>
                {company.email}
              </a>
            </p>
            <p>
              <a className={footerLink} href={`tel:${company.phone.e164}`}>
                {company.phone.display}
              </a>
            </p>
            <p>
              {company.address.street}
              <br />
              {company.address.locality} {company.address.postalCode}
              <br />
              {company.address.country}
            </p>
          </address>
        </div>
      </div>
      <div className="border-t border-white/15">
        <p className="mx-auto max-w-7xl px-4 py-6 text-xs text-slate-300 sm:px-6">
          {/* The year is fixed when the page is prerendered (the footer is never hydrated). */}©{" "}
          {new Date().getFullYear()} {company.legalName}. Registered in {company.registeredIn}, company number{" "}
          {company.companyNumber}.
        </p>
      </div>
    </footer>
  );
}
