import ICAL from "ical.js";

// A meeting as an iCalendar object (RFC 5545) that calendar apps accept from an e-mail (iTIP, RFC
// 5546): METHOD:REQUEST for a new or moved meeting, METHOD:CANCEL for a cancelled one, one UID for the
// meeting's whole life and a SEQUENCE that goes up with each change, times in UTC. ical.js writes
// it: text values escaped (\; \, \n), parameters quoted (RFC 6868), lines folded at 75 octets, CRLF.
// Nothing a visitor typed can start a property of its own.

export type InvitationPerson = { name: string; email: string };

export type Invitation = {
  /** null: the event as a calendar stores it (CalDAV), no METHOD, and the server told not to invite anyone. */
  method: "REQUEST" | "CANCEL" | null;
  uid: string;
  sequence: number;
  start: number;
  end: number;
  /** When this version was made (DTSTAMP). */
  stamp: number;
  summary: string;
  description: string;
  organizer: InvitationPerson;
  attendee: InvitationPerson;
};

const utc = (instant: number) => ICAL.Time.fromJSDate(new Date(instant), true);

function person(
  name: "organizer" | "attendee",
  who: InvitationPerson,
  attendee: boolean,
  stored: boolean,
): ICAL.Property {
  const property = new ICAL.Property(name);
  // A display name has no line breaks or quotes to carry; ical.js would encode them, we drop them.
  property.setParameter(
    "cn",
    who.name
      .replace(/[\r\n"]+/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
  if (attendee) {
    property.setParameter("role", "REQ-PARTICIPANT");
    property.setParameter("partstat", "NEEDS-ACTION");
    property.setParameter("rsvp", "TRUE");
  }
  // RFC 6638 §7.1: a CalDAV server that schedules (iCloud, Google, Nextcloud) would otherwise e-mail
  // its own invitation on top of ours.
  if (stored) property.setParameter("schedule-agent", "CLIENT");
  property.setValue(`mailto:${who.email}`);
  return property;
}

/** The VEVENT of one invitation (the event a calendar stores when `method` is null). */
export function invitationEvent(invitation: Invitation): ICAL.Component {
  const event = new ICAL.Component("vevent");
  event.updatePropertyWithValue("uid", invitation.uid);
  event.updatePropertyWithValue("sequence", invitation.sequence);
  event.updatePropertyWithValue("dtstamp", utc(invitation.stamp));
  event.updatePropertyWithValue("dtstart", utc(invitation.start));
  event.updatePropertyWithValue("dtend", utc(invitation.end));
  event.updatePropertyWithValue("summary", invitation.summary);
  event.updatePropertyWithValue("description", invitation.description);
  event.updatePropertyWithValue("status", invitation.method === "CANCEL" ? "CANCELLED" : "CONFIRMED");
  event.updatePropertyWithValue("transp", "OPAQUE");
  const stored = invitation.method === null;
  event.addProperty(person("organizer", invitation.organizer, false, stored));
  event.addProperty(person("attendee", invitation.attendee, true, stored));
  return event;
}

/** A VCALENDAR holding `events`, with METHOD when given and the extra calendar properties (a feed's name). */
export function calendarText(
  events: ICAL.Component[],
  method: Invitation["method"] = null,
  properties: Record<string, string> = {},
): string {
  const calendar = new ICAL.Component(["vcalendar", [], []]);
  calendar.updatePropertyWithValue("prodid", "-//Clausebridge//Meetings//EN");
  calendar.updatePropertyWithValue("version", "2.0");
  calendar.updatePropertyWithValue("calscale", "GREGORIAN");
  if (method) calendar.updatePropertyWithValue("method", method);
  for (const [name, value] of Object.entries(properties)) calendar.updatePropertyWithValue(name, value);
  for (const event of events) calendar.addSubcomponent(event);
  return calendar.toString();
}

/** The iCalendar text of one invitation or cancellation, or (method null) of the event a calendar stores. */
export function invitationText(invitation: Invitation): string {
  return calendarText([invitationEvent(invitation)], invitation.method);
}
