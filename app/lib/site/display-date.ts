// The date as readers of the public pages see it (articles, press items, the privacy policy's changes).

const displayDateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/** '2024-11-28' → '28 November 2024', the same on the server and in every browser. */
export function formatDisplayDate(isoDate: string): string {
  return displayDateFormat.format(new Date(`${isoDate}T00:00:00Z`));
}
