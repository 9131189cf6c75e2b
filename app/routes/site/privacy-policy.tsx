import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { formatAddress, site } from "#app/features/content/site.ts";
import type { Route } from "./+types/privacy-policy";

export const meta: Route.MetaFunction = () =>
  getMeta({
    title: "Privacy Policy",
    path: "/privacy-policy",
    description: `How ${site.company.legalName} collects, uses, shares and protects personal data under UK and EU data protection law, and how to exercise your rights.`,
  });

/** The policy's sections in reading order; the ids feed the 'On this page' list. */
const sections = [
  { id: "policy-scope", title: "What this policy covers" },
  { id: "data-we-collect", title: "Personal data we collect" },
  { id: "how-we-collect", title: "How we collect your personal data" },
  { id: "how-we-use", title: "How and why we use your personal data" },
  { id: "marketing", title: "Marketing" },
  { id: "sharing", title: "Who we share your personal data with" },
  { id: "retention", title: "How long we keep your personal data" },
  { id: "your-rights", title: "Your rights" },
  { id: "children", title: "Children" },
  { id: "contact-us", title: "How to contact us" },
] as const;

type SectionId = (typeof sections)[number]["id"];

// NOTE: a compact local section rather than <Section>: ten full-height page bands would make the
// policy hard to read; each part is still a landmark labelled by its h2.
function PolicySection({ id, children }: { id: SectionId; children: ReactNode }) {
  const title = sections.find((section) => section.id === id)?.title ?? id;
  return (
    <section id={id} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}

export default function PrivacyPolicy() {
  const { company } = site;
  const { street, locality, postalCode, country } = company.address;
  const privacyEmail = <a href={`mailto:${company.privacyEmail}`}>{company.privacyEmail}</a>;
  const phone = <a href={`tel:${company.phone.e164}`}>{company.phone.display}</a>;

  return (
    <>
      <PageHero
        title="Privacy Policy"
        breadcrumb={[{ label: "Home", to: "/" }, { label: "Privacy Policy" }]}
        intro={
          <>
            <p>
              How {company.legalName} looks after the personal data of the people who visit our website,
              request a demonstration, register interest as investors or otherwise get in touch with us.
            </p>
            <p className="mt-4 text-base font-semibold text-white">
              {`Policy version: ${site.privacyPolicyVersion}`}
            </p>
          </>
        }
      />

      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-4 lg:py-16">
        <nav aria-label="On this page" className="lg:col-span-1">
          <div className="rounded-xl border border-line bg-surface-muted p-6 lg:sticky lg:top-24">
            <p className="font-semibold text-ink">On this page</p>
            <ol className="mt-3 space-y-2 text-sm">
              {sections.map((section) => (
                <li key={section.id}>
                  <a href={`#${section.id}`} className="text-brand underline-offset-2 hover:underline">
                    {section.title}
                  </a>
                </li>
              ))}
            </ol>
          </div>
        </nav>

        <article className="prose-body max-w-3xl lg:col-span-3">
          <PolicySection id="policy-scope">
            <p>
              This policy explains how {company.legalName} (“{site.productName}”, “we”, “us”, “our”) collects
              and uses personal data through this website and in our dealings with prospective customers,
              investors and other business contacts. It does not cover the contract documents our customers
              upload to the {site.productName} platform: we process those on our customers’ behalf under the
              terms of our customer agreement, and the customer is the controller of that data.
            </p>
            <p>
              {company.legalName} is the controller of the personal data described in this policy. We are a
              private limited company registered in {company.registeredIn} with company number{" "}
              {company.companyNumber}, and our address is {formatAddress()}.
            </p>
            <p>
              We process personal data in accordance with the UK General Data Protection Regulation (UK GDPR)
              and the Data Protection Act 2018. Where we offer our services to, or monitor the behaviour of,
              people in the European Union, we also comply with the EU General Data Protection Regulation (EU
              GDPR).
            </p>
            <p>
              We may update this policy from time to time. The version date at the top of this page shows when
              it was last changed, and we will tell you directly about any significant change that affects
              you.
            </p>
          </PolicySection>

          <PolicySection id="data-we-collect">
            <p>Depending on how you deal with us, we may collect:</p>
            <ul>
              <li>
                <strong>Contact and identity details</strong>: your full name, job title, company name, work
                email address and telephone number.
              </li>
              <li>
                <strong>Enquiry details</strong>: the information you give us when you request a demonstration
                or contact us, such as the message you write and the types of contract you manage.
              </li>
              <li>
                <strong>Investor details</strong>: if you register interest in investing, whether you invest
                as an angel, through a venture capital fund, as an introducer or otherwise, and any further
                details you choose to give us.
              </li>
              <li>
                <strong>Correspondence</strong>: records of our emails, calls and meetings with you.
              </li>
              <li>
                <strong>Marketing preferences</strong>: whether you have asked not to receive marketing from
                us.
              </li>
              <li>
                <strong>Technical data</strong>: your IP address, browser type and version, device type and
                the pages you request, recorded in our server logs when you visit the website.
              </li>
            </ul>
            <p>
              We do not ask for, and ask you not to send us, special category data such as information about
              your health, ethnicity, religious beliefs or political opinions.
            </p>
          </PolicySection>

          <PolicySection id="how-we-collect">
            <p>We collect personal data:</p>
            <ul>
              <li>
                <strong>directly from you</strong>, when you complete a form on our website, email or
                telephone us, meet us at an event or exchange business cards with us;
              </li>
              <li>
                <strong>automatically</strong>, through our web servers when you browse the website. We set
                one strictly necessary cookie, <code>form_ts</code>: a signed record of when you opened a
                page, which holds no identifier, expires after 48 hours and lets us filter automated spam sent
                through our forms. We do not use cookies for advertising. If we introduce any cookies that are
                not strictly necessary for the website to work, we will ask for your consent first;
              </li>
              <li>
                <strong>from third parties and public sources</strong>, such as a colleague who introduces you
                to us, Companies House and professional networking sites, where this is relevant to a business
                relationship with you.
              </li>
            </ul>
          </PolicySection>

          <PolicySection id="how-we-use">
            <p>
              Data protection law only allows us to use personal data where we have a lawful basis for doing
              so. We use your personal data for the following purposes:
            </p>
            <ul>
              <li>
                <strong>To respond to your enquiry and arrange a demonstration</strong>, relying on our
                legitimate interest in responding to businesses interested in our services, or, where you are
                acting for yourself, on taking steps at your request before entering into a contract.
              </li>
              <li>
                <strong>To handle investor enquiries</strong> and, if you go on to invest, to manage our
                relationship with you as a shareholder, relying on our legitimate interest in raising
                investment and, once you invest, on our legal obligations under company law.
              </li>
              <li>
                <strong>To provide and manage our services</strong> if your organisation becomes a customer,
                relying on the performance of our contract with your organisation and our legitimate interest
                in administering the account.
              </li>
              <li>
                <strong>To send you marketing</strong>, as explained in the Marketing section below.
              </li>
              <li>
                <strong>To keep our website and systems secure</strong>, including detecting and preventing
                misuse, fraud and attacks, relying on our legitimate interest in protecting our business and
                the people who use our website.
              </li>
              <li>
                <strong>To meet our legal and regulatory obligations</strong>, for example keeping accounting
                records and responding to lawful requests from public authorities.
              </li>
            </ul>
            <p>
              Where we rely on legitimate interests, we have weighed our interests against your rights and
              freedoms and concluded that the use is proportionate. Where we rely on your consent, you may
              withdraw it at any time without affecting processing carried out before you withdrew it. We do
              not make decisions about you based solely on automated processing that have legal or similarly
              significant effects.
            </p>
          </PolicySection>

          <PolicySection id="marketing">
            <p>
              We may send you information about {site.productName}, such as product updates, industry articles
              and invitations to events, by email or telephone. We do this on the basis of our legitimate
              interest in promoting our services to businesses, and only where the Privacy and Electronic
              Communications Regulations allow it. If you are a sole trader or in a partnership, we will only
              email you marketing if you have consented or have asked us about similar services before. We
              check telephone numbers against the Corporate Telephone Preference Service before making
              marketing calls.
            </p>
            <p>You can opt out of marketing at any time, free of charge:</p>
            <ul>
              <li>by using the unsubscribe link in any marketing email we send you;</li>
              <li>by emailing {privacyEmail}; or</li>
              <li>by calling us on {phone}.</li>
            </ul>
            <p>
              When you opt out we keep a short record of your name and contact details on a suppression list,
              so that we can make sure we do not contact you again. Opting out of marketing does not stop us
              sending you messages you need, such as replies to your enquiries.
            </p>
          </PolicySection>

          <PolicySection id="sharing">
            <p>
              We do not sell your personal data, and we do not share it with other organisations for their own
              marketing. We share it only with:
            </p>
            <ul>
              <li>
                <strong>Service providers acting as our processors</strong>, including the company that hosts
                our website and systems and our email service provider. They may use your data only on our
                instructions, under a written contract that requires them to keep it secure and confidential.
              </li>
              <li>
                <strong>Professional advisers</strong>, such as our lawyers, accountants and insurers, where
                they need it to advise us.
              </li>
              <li>
                <strong>Public authorities, regulators and courts</strong>, where the law requires us to, or
                to establish, exercise or defend legal claims.
              </li>
              <li>
                <strong>A buyer or investor</strong> in our business, under confidentiality obligations, if we
                sell, restructure or raise investment in all or part of {company.legalName}.
              </li>
            </ul>
            <p>
              Where a service provider processes personal data outside the United Kingdom, we make sure it is
              protected to the standard UK law requires, by transferring it only to countries the UK
              government has recognised as adequate, or under the International Data Transfer Agreement or the
              UK Addendum to the European Commission’s standard contractual clauses. Contact us if you would
              like more information about these safeguards.
            </p>
          </PolicySection>

          <PolicySection id="retention">
            <p>We keep personal data only for as long as we need it for the purposes described above:</p>
            <ul>
              <li>
                <strong>Demonstration and general enquiries</strong>: up to two years from our last contact
                with you, unless your organisation becomes a customer.
              </li>
              <li>
                <strong>Investor enquiries</strong>: up to two years from our last contact with you; if you
                become a shareholder, for as long as company law requires us to keep our register of members.
              </li>
              <li>
                <strong>Customer contacts</strong>: for the duration of the customer agreement and up to six
                years after it ends, in line with the limitation period for contract claims.
              </li>
              <li>
                <strong>Server logs</strong>: up to 90 days, unless needed to investigate a security incident.
              </li>
              <li>
                <strong>Marketing suppression list</strong>: for as long as we carry out marketing, so that we
                continue to respect your opt-out.
              </li>
            </ul>
            <p>When we no longer need your personal data, we delete it or anonymise it securely.</p>
          </PolicySection>

          <PolicySection id="your-rights">
            <p>Under the UK GDPR and, where it applies, the EU GDPR, you have the right to:</p>
            <ul>
              <li>be informed about how we use your personal data, which is the purpose of this policy;</li>
              <li>access the personal data we hold about you and receive a copy of it;</li>
              <li>have inaccurate or incomplete personal data corrected;</li>
              <li>have your personal data erased in certain circumstances;</li>
              <li>restrict how we use your personal data in certain circumstances;</li>
              <li>
                object to our use of your personal data where we rely on legitimate interests, and object at
                any time to its use for direct marketing;
              </li>
              <li>
                receive personal data you have given us in a portable format, where we process it by automated
                means on the basis of consent or a contract;
              </li>
              <li>withdraw your consent at any time, where we rely on consent.</li>
            </ul>
            <p>
              To exercise any of these rights, contact us using the details below. We do not usually charge a
              fee and will respond within one month, which the law allows us to extend by up to two further
              months for complex requests. We may need to ask you for information to confirm your identity
              first.
            </p>
            <p>
              If you are unhappy with how we have handled your personal data, please tell us so that we can
              try to put things right. You also have the right to complain to the Information Commissioner’s
              Office (ICO), the UK supervisory authority for data protection, at{" "}
              <a href="https://ico.org.uk/make-a-complaint/">ico.org.uk/make-a-complaint</a> or on{" "}
              <a href="tel:+443031231113">0303 123 1113</a>. If you live or work in the European Economic
              Area, you may also complain to the data protection authority in your country.
            </p>
          </PolicySection>

          <PolicySection id="children">
            <p>
              Our website and services are intended for businesses and are not directed at children under the
              age of 13. We do not expect to collect personal data from children under 13 and do not knowingly
              do so. If you believe a child under 13 has given us personal data, please contact us and we will
              delete it.
            </p>
          </PolicySection>

          <PolicySection id="contact-us">
            <p>
              If you have any questions about this policy or how we use your personal data, or you wish to
              exercise your rights, please contact us:
            </p>
            <ul>
              <li>
                <strong>By post</strong>: Data Protection, {company.legalName}, {street}, {locality}{" "}
                {postalCode}, {country}
              </li>
              <li>
                <strong>By email</strong>: {privacyEmail}
              </li>
              <li>
                <strong>By phone</strong>: {phone}
              </li>
            </ul>
            <p>
              For anything else, you can reach us through the details on our{" "}
              <Link to="/demo">Request a Demo</Link> page.
            </p>
          </PolicySection>
        </article>
      </div>
    </>
  );
}
