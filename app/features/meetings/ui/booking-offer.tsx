import { type MouseEvent, useEffect, useRef, useState } from "react";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { BookingPageType } from "../booking-types.ts";
import { dayLabel, groupByDay, type SlotDay, timeLabel } from "../slot-labels.ts";
import { BOOKING_TOKEN_FIELD, type ServerBookingOffer } from "./booking-offer-form.tsx";
import { TimeChoice, ZoneChoice } from "./time-choice.tsx";

// The thank-you panel's time picker (issue 34): the request just sent already holds the name, e-mail
// and company, so picking a time books it, with no second form. Without JavaScript the page renders
// the times (Europe/London, a select to change it) and the radios post to /book/<type> with the
// request's booking token; with JavaScript the times come from the slots API in the browser's zone
// and the booking from the meetings API, in place.

/** Days of times offered: the next five with open times. */
const DAYS_OFFERED = 5;
/** Days searched for them (weekends and full days skipped). */
const DAYS_SEARCHED = 21;

type Booked = { start: string; end: string; hostName: string; manageUrl: string; zone: string };

const HEADINGS: Record<BookingPageType, { title: string; text: (minutes: number) => string }> = {
  demo: {
    title: "Pick a time for your demo now",
    text: (minutes) =>
      `${minutes} minutes online with a member of our team. Choose a time and it is booked: the invitation arrives by e-mail, and you can move or cancel it from there.`,
  },
  investor: {
    title: "Book your investor call now",
    text: (minutes) =>
      `${minutes} minutes by video call. Choose a time and it is booked: the invitation arrives by e-mail, and you can move or cancel it from there.`,
  },
};

/** The browser's zone, when it names one the server knows; else London, as the page. */
function browserZone(fallback: string): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || fallback;
  } catch {
    return fallback;
  }
}

/** "London time", "New York time", "UTC". */
const zoneName = (zone: string) =>
  zone === "UTC" ? "UTC" : `${(zone.split("/").pop() ?? zone).replaceAll("_", " ")} time`;

/** Today's date in `zone`, YYYY-MM-DD. */
const todayIn = (zone: string) => new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(Date.now());

const regroup = (days: SlotDay[], zone: string) =>
  groupByDay(
    days.flatMap((day) => day.slots.map((slot) => ({ start: Date.parse(slot.start) }))),
    zone,
    DAYS_OFFERED,
  );

const fromApi = (slots: { start: string }[], zone: string) =>
  groupByDay(
    slots.map((slot) => ({ start: Date.parse(slot.start) })),
    zone,
    DAYS_OFFERED,
  );

export default function BookingOffer({
  type,
  formId,
  token,
  pagePath,
  initial,
}: {
  type: BookingPageType;
  /** The lead form's id: the picker's ids and its form's derive from it. */
  formId: string;
  token: string;
  /** The page the no-JavaScript zone choice reloads (`/demo`). */
  pagePath: string;
  initial?: ServerBookingOffer;
}) {
  const hydrated = useHydrated();
  const form = `${formId}-booking`;
  const [zone, setZone] = useState(initial?.zone ?? "Europe/London");
  const [days, setDays] = useState<SlotDay[] | null>(initial?.days ?? null);
  const [minutes, setMinutes] = useState(initial?.durationMinutes ?? 30);
  const [message, setMessage] = useState<string | null>(initial?.limited ?? null);
  const [booking, setBooking] = useState(false);
  const [booked, setBooked] = useState<Booked | null>(null);
  // The select is uncontrolled (it works without scripts): it starts again when the browser's zone
  // replaces the page's.
  const [zoneKey, setZoneKey] = useState(0);
  const statusRef = useRef<HTMLDivElement>(null);

  // After a scripted request there are no times yet: ask the API, in the browser's zone.
  useEffect(() => {
    if (initial) return;
    const visitorZone = browserZone("Europe/London");
    setZone(visitorZone);
    setZoneKey((key) => key + 1);
    const query = new URLSearchParams({
      type,
      from: todayIn(visitorZone),
      days: String(DAYS_SEARCHED),
      timeZone: visitorZone,
    });
    let cancelled = false;
    fetch(`/api/meetings/slots?${query}`)
      .then(async (response) => {
        const body = (await response.json()) as {
          slots?: { start: string; end: string }[];
          message?: string;
        };
        if (cancelled) return;
        const first = body.slots?.[0];
        if (first) setMinutes(Math.round((Date.parse(first.end) - Date.parse(first.start)) / 60_000));
        if (response.ok && body.slots) setDays(fromApi(body.slots, visitorZone));
        else setMessage(body.message ?? "The times could not be loaded. Please write to us to arrange one.");
      })
      .catch(() => {
        if (!cancelled) setMessage("The times could not be loaded. Please write to us to arrange one.");
      });
    return () => {
      cancelled = true;
    };
  }, [initial, type]);

  async function book(event: MouseEvent<HTMLButtonElement>) {
    // Without scripts the button posts the form to /book/<type>; with them the API books in place.
    event.preventDefault();
    if (booking) return;
    const chosen = document.querySelector<HTMLInputElement>(`input[form="${form}"][name="start"]:checked`);
    if (!chosen) {
      setMessage("Choose a time.");
      return;
    }
    setBooking(true);
    setMessage(null);
    try {
      const response = await fetch("/api/meetings", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ type, start: chosen.value, leadToken: token, timeZone: zone }),
      });
      const body = (await response.json()) as Partial<Booked> & {
        message?: string;
        slots?: { start: string }[];
      };
      if (response.status === 201 && body.start && body.manageUrl) {
        setBooked({
          start: body.start,
          end: body.end ?? body.start,
          hostName: body.hostName ?? "",
          manageUrl: body.manageUrl,
          zone,
        });
      } else {
        setMessage(body.message ?? "The time could not be booked. Please try again.");
        if (response.status === 409 && body.slots?.length) setDays(fromApi(body.slots, zone));
      }
    } catch {
      setMessage("The time could not be booked: check your connection and try again.");
    } finally {
      setBooking(false);
    }
  }

  // Screen readers hear the outcome: focus moves to it once it shows.
  useEffect(() => {
    if (booked || message) statusRef.current?.focus();
  }, [booked, message]);

  const heading = HEADINGS[type];
  const headingId = `${formId}-booking-title`;
  if (booked) {
    const start = Date.parse(booked.start);
    return (
      <section aria-labelledby={headingId} className="mt-6 border-t border-green-200 pt-6">
        <div ref={statusRef} tabIndex={-1} role="status" className="outline-none">
          <h4 id={headingId} className="text-lg font-semibold text-ink">
            Booked: {dayLabel(start, booked.zone)}, {timeLabel(start, booked.zone)} ({zoneName(booked.zone)})
          </h4>
          <p className="mt-1 leading-7 text-ink">
            {booked.hostName ? `With ${booked.hostName}. ` : ""}The invitation is on its way to your e-mail.{" "}
            <a className="font-semibold text-brand underline underline-offset-2" href={booked.manageUrl}>
              Change or cancel this booking
            </a>
          </p>
        </div>
      </section>
    );
  }
  return (
    <section aria-labelledby={headingId} className="mt-6 border-t border-green-200 pt-6">
      <h4 id={headingId} className="text-lg font-semibold text-ink">
        {heading.title}
      </h4>
      <p className="mt-1 mb-4 leading-7 text-ink">{heading.text(minutes)}</p>
      <input type="hidden" form={form} name={BOOKING_TOKEN_FIELD} value={token} />
      <input type="hidden" form={form} name="submitted" value={type} />
      <div className="mb-5">
        <ZoneChoice
          key={zoneKey}
          zone={zone}
          id={`${formId}-booking-tz`}
          form={form}
          action={`${pagePath}#${formId}`}
          onZone={
            hydrated && days
              ? (next) => {
                  setZone(next);
                  setDays(regroup(days, next));
                }
              : undefined
          }
        />
      </div>
      <div ref={statusRef} tabIndex={-1} className="outline-none">
        {message ? (
          <p role="alert" className="mb-4 font-semibold text-danger">
            {message}
          </p>
        ) : null}
      </div>
      {days ? (
        <>
          <TimeChoice days={days} form={form} compact />
          {days.length > 0 ? (
            <button
              type="submit"
              form={form}
              formNoValidate
              onClick={hydrated ? book : undefined}
              disabled={booking}
              className="mt-5 h-12 rounded-md bg-accent px-6 text-lg font-semibold text-ink hover:bg-[#e09c00] focus-visible:outline-3 focus-visible:outline-offset-2 disabled:opacity-70"
            >
              {booking ? "Booking..." : "Book this time"}
            </button>
          ) : null}
        </>
      ) : message ? null : (
        <p className="text-ink-muted">Finding open times…</p>
      )}
    </section>
  );
}
