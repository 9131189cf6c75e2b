import { Fragment, type ReactNode } from "react";
import { Link } from "react-router";
import { PageHero } from "#app/components/site/page-hero.tsx";
import {
  MAX_VIEWS_PER_ADDRESS_PER_DAY,
  MAX_VISITORS_PER_ADDRESS,
} from "#app/features/analytics/view-limits.ts";
import { getMeta } from "#app/features/content/meta.ts";
import {
  FIRST_POLICY_DATE,
  formatPolicyDate,
  POLICY_VERSION,
  privacyPolicyChanges,
} from "#app/lib/site/privacy-changes.ts";
import { PUBLISHED_RETENTION as kept } from "#app/lib/site/retention-periods.ts";
import { formatAddress, site } from "#app/lib/site/site.ts";
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
  { id: "analytics", title: "Website analytics" },
  { id: "meetings", title: "Booking a meeting with us" },
  { id: "how-we-use", title: "How and why we use your personal data" },
  { id: "marketing", title: "Marketing" },
  { id: "sharing", title: "Who we share your personal data with" },
  { id: "retention", title: "How long we keep your personal data" },
  { id: "your-rights", title: "Your rights" },
  { id: "children", title: "Children" },
  { id: "contact-us", title: "How to contact us" },
  { id: "changes", title: "Changes to this policy" },
] as const;

type SectionId = (typeof sections)[number]["id"];

// NOTE: a compact local section rather than <Section>: twelve full-height page bands would make the
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
            {POLICY_VERSION !== FIRST_POLICY_DATE ? (
              <p className="mt-1 text-base text-white">
                Last changed: <time dateTime={POLICY_VERSION}>{formatPolicyDate(POLICY_VERSION)}</time> (see{" "}
                <a href="#changes" className="text-white underline underline-offset-2">
                  Changes to this policy
                </a>
                )
              </p>
            ) : null}
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
              We may update this policy from time to time. The version at the top of this page is the policy
              as first published; every later change is listed, with its date, under{" "}
              <a href="#changes">Changes to this policy</a>, and we will tell you directly about any
              significant change that affects you.
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
                <strong>Meeting bookings</strong>: if you book a demonstration or an investor call on our
                website, the details described under <a href="#meetings">Booking a meeting with us</a>.
              </li>
              <li>
                <strong>Marketing preferences</strong>: whether you have asked not to receive marketing from
                us.
              </li>
              <li>
                <strong>Technical data</strong>: your IP address and browser details, which our web servers
                need to deliver pages to you and to protect our forms from abuse (the record we keep of how
                often forms are sent holds a keyed code made from the address, never the address itself).
              </li>
              <li>
                <strong>Visit counts</strong>: the pages of our website you view, counted without cookies and
                without storing your IP address, as described under <a href="#analytics">Website analytics</a>
                .
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
                one cookie, <code>form_ts</code>, which is strictly necessary for spam protection: a signed
                record of when you opened a page, which holds no identifier, expires after 48 hours and lets
                us filter automated spam sent through our forms. We use no analytics or advertising cookies
                and store nothing else on your device. If we introduce any cookies that are not strictly
                necessary for the website to work, we will ask for your consent first;
              </li>
              <li>
                <strong>from third parties and public sources</strong>, such as a colleague who introduces you
                to us, Companies House and professional networking sites, where this is relevant to a business
                relationship with you.
              </li>
            </ul>
          </PolicySection>

          <PolicySection id="analytics">
            <p>
              We count visits to our website on our own servers, to learn which pages and campaigns are useful
              and to find broken links. We do this without cookies, without storing or reading anything on
              your device and without tracking scripts, and we do not share the counts with advertising or
              analytics companies.
            </p>
            <p>For each page you request, our servers record:</p>
            <ul>
              <li>the page and the time;</li>
              <li>
                the website that linked to it, if it told us (for other websites, the linking page too);
              </li>
              <li>
                campaign tags in the link (<code>utm_source</code>, <code>utm_medium</code>,{" "}
                <code>utm_campaign</code>, <code>utm_term</code>, <code>utm_content</code>), and whether it
                came from a paid advert (we note that a click identifier was present, not the identifier);
              </li>
              <li>the kind of device (desktop, mobile or tablet) and the browser family;</li>
              <li>a visitor code, explained below.</li>
            </ul>
            <p>
              The visitor code is a one-way hash of a random value we create each day (a “salt”), your IP
              address, your browser’s user-agent text and our website’s name. It lets us count a visitor once
              in a day without knowing who they are. Each day’s salt is deleted {kept.analyticsSaltHours}{" "}
              hours after it was created; from then on nobody, us included, can recompute a code or link it to
              you or to your visits on other days. Your IP address is never stored.
            </p>
            <p>
              So that one connection cannot inflate our figures, each of our servers also keeps, in its memory
              only and for the current day, a one-way hash of your IP address (for the newer IPv6 addresses,
              of its first half) made with that day’s salt, and how many visitors and page views came from it.
              It is never written to disk, it is forgotten when the day ends or the server restarts, and it
              cannot be recomputed once the salt is deleted. Beyond {MAX_VISITORS_PER_ADDRESS} visitors or{" "}
              {MAX_VIEWS_PER_ADDRESS_PER_DAY.toLocaleString("en-GB")} page views a day from one address,
              further visits are counted together or not stored.
            </p>
            <p>
              If you send us an enquiry through a form, we link it to the first page you viewed that day: the
              page you landed on, the website that sent you, the campaign tags, how many pages you viewed and
              how long until you sent the form. This is kept with your enquiry, for our staff, and is erased
              or anonymised with it.
            </p>
            <p>
              We do not count visits from browsers that send a Global Privacy Control signal (
              <code className="whitespace-nowrap">Sec-GPC: 1</code>) or a Do Not Track request (
              <code className="whitespace-nowrap">DNT: 1</code>), and an enquiry sent from such a browser is
              not linked to any visit. Visits by automated tools are not counted either.
            </p>
            <p>
              Individual page views are kept for {kept.analyticsRawDays} days. After that only daily totals
              remain (views and visitors per page, referring website, campaign, type of device and browser),
              which contain no visitor code. We rely on our legitimate interest in understanding and improving
              our website; as nothing is stored on or read from your device, we do not ask for consent.
            </p>
          </PolicySection>

          <PolicySection id="meetings">
            <p>
              You can book a product demonstration or an investor call with a member of our team on our
              website. When you do, we keep:
            </p>
            <ul>
              <li>
                your name, email address, company and telephone number, which you give us when you book;
              </li>
              <li>your time zone, so that we show and send you the time of the meeting in it;</li>
              <li>
                the meeting itself: its type, its date and time, the member of our team hosting it, whether it
                was moved or cancelled and, afterwards, whether it took place.
              </li>
            </ul>
            <p>
              A booking is also kept as an enquiry, like a form sent on our website, and we use it to hold the
              meeting and to respond to your interest in our services, relying on the same lawful bases (see{" "}
              <a href="#how-we-use">How and why we use your personal data</a>).
            </p>
            <p>
              We email an invitation for the meeting (which your calendar can add) to you and to the member of
              our team hosting it, with your name, company, email address and telephone number in the host’s
              copy, and we email you both again if the meeting is moved or cancelled. We also email you both a
              reminder 24 hours and one hour before the meeting (each only if the meeting was booked at least
              that long ahead). Each email to you holds a private link with which you can move or cancel the
              meeting.
            </p>
            <p>
              If the host has connected their own work calendar to our website (a calendar service they use
              that supports the CalDAV standard), we write the meeting into that calendar, with your name,
              company, email address, telephone number and a link to your enquiry for our staff, and update or
              remove it when the meeting is moved or cancelled. From that calendar we read only the times the
              host is busy, so that we do not offer you a time they cannot make.
            </p>
            <p>
              Your meetings are kept with your enquiry and anonymised with it (see{" "}
              <a href="#retention">How long we keep your personal data</a>). If you ask us to erase your data,
              we cancel your meetings still to come without emailing you again, and we remove your details
              from all your meetings and take them out of our hosts’ calendars.
            </p>
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
                <strong>The calendar service a member of our team uses for work</strong>, when they host a
                meeting you book and have connected their calendar to our website (see{" "}
                <a href="#meetings">Booking a meeting with us</a>).
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
                <strong>Demonstration requests and investor enquiries</strong>: {kept.leadMonths} months from
                the last activity on them (your enquiry, or our last update to it). We then anonymise the
                enquiry: your name, contact details, company, message and our notes about it are deleted, and
                only an anonymous record remains (its type, date, status and how the visit came to our
                website), which we use for statistics and which cannot identify you.
              </li>
              <li>
                <strong>Meetings you book with us</strong>: with your enquiry. When the enquiry is anonymised,
                your name, email address, company and telephone number are removed from your meetings, which
                are taken out of our hosts’ calendars; only the meeting’s type, time, host and whether it took
                place remain.
              </li>
              <li>
                <strong>Submissions our spam filter holds back</strong>: deleted {kept.spamDays} days after
                they were held (or after our last review of them).
              </li>
              <li>
                <strong>Records of the emails our website sends our sales team about an enquiry</strong>:{" "}
                {kept.outboxSentDays} days after sending.
              </li>
              <li>
                <strong>Copies of an enquiry sent to our other business systems</strong>: each copy is removed
                from our delivery records once it is delivered, and the records themselves, with any copy that
                could not be delivered, after {kept.webhookDeliveryDays} days.
              </li>
              <li>
                <strong>Website analytics</strong>: individual page views for {kept.analyticsRawDays} days,
                the daily salt for {kept.analyticsSaltHours} hours, and anonymous daily totals after that (see{" "}
                <a href="#analytics">Website analytics</a>).
              </li>
              <li>
                <strong>Records that limit how often forms and sign-in can be used</strong>: keyed codes,
                never addresses or names, deleted within minutes of the end of the time window they cover.
              </li>
              <li>
                <strong>Investor relationships</strong>: if you become a shareholder, for as long as company
                law requires us to keep our register of members.
              </li>
              <li>
                <strong>Customer contacts</strong>: for the duration of the customer agreement and up to six
                years after it ends, in line with the limitation period for contract claims.
              </li>
              <li>
                <strong>Server logs</strong>: up to 90 days, unless needed to investigate a security incident.
              </li>
              <li>
                <strong>Erasure records</strong>: if you ask us to erase your data, the suppression record
                described under <a href="#your-rights">Your rights</a>, for as long as we run this website, so
                that we keep honouring your request.
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
              Everything our website holds on you is linked to your email address, so we can find all of it at
              once: on request we give you all of it together (your enquiries, our notes about them, their
              history, how your visit reached our website and the emails our systems sent about them), both as
              a readable document and as a machine-readable file.
            </p>
            <p>
              If you ask us to erase your data, we erase all of it together in one step: your enquiries, our
              notes, their history, the emails and copies waiting to be sent about them and the link to your
              visit, and we tell the business systems our website sends enquiries to that they are deleted. We
              keep only a suppression record: a keyed code made from your email address (an HMAC, which cannot
              be turned back into the address), the date and the reason for the erasure. It lets us recognise
              the address if it reaches us again. If you later contact us again through the forms on our own
              website, we take that as your new choice to get in touch and handle it like any new enquiry; if
              one of our connected business systems sends us your details again, we refuse them.
            </p>
            <p>
              An erasure also covers the meetings you booked with us: those still to come are cancelled
              (without a further email to you), all of them are taken out of our hosts’ calendars, and your
              name, email address, company and telephone number are removed from all of them, past ones
              included.
            </p>
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
          <PolicySection id="changes">
            <p>
              The version at the top of this page is the policy first published on {site.privacyPolicyVersion}
              . Each later change is listed here with the date it was published, newest first. When you send
              us an enquiry we record the date of the latest change, so that we know which version you were
              shown.
            </p>
            {[...privacyPolicyChanges].reverse().map((change) => (
              <Fragment key={change.date}>
                <h3>
                  <time dateTime={change.date}>{formatPolicyDate(change.date)}</time>
                </h3>
                <ul>
                  {change.changes.map((text) => (
                    <li key={text}>{text}</li>
                  ))}
                </ul>
              </Fragment>
            ))}
          </PolicySection>
        </article>
      </div>
    </>
  );
}
