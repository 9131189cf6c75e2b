import Bowser from "bowser";

// What a session keeps of the browser that opened it, to be recognised in the sessions list: the
// browser and system by name, never the raw User-Agent (a near-unique string). The address is kept
// masked to its network (lib/mask-address.ts).

const MAX_USER_AGENT_LENGTH = 512;

/** "Firefox on Windows", "Safari on iOS", or "Unknown browser". */
export function describeBrowser(userAgent: string | null | undefined): string {
  const header = (userAgent ?? "").slice(0, MAX_USER_AGENT_LENGTH).trim();
  if (!header) return "Unknown browser";
  const parsed = Bowser.parse(header);
  const browser = parsed.browser.name?.slice(0, 40);
  const system = parsed.os.name?.slice(0, 40);
  if (!browser) return system ? `Unknown browser on ${system}` : "Unknown browser";
  return system ? `${browser} on ${system}` : browser;
}
