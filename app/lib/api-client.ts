// The back office's calls to the JSON API from the browser (SPEC section 7): same origin, cookies
// included, JSON in and out.

export const NETWORK_ERROR = "Network error. Please try again.";

export function sendJson(path: string, method: string, body?: unknown): Promise<Response> {
  return fetch(path, {
    method,
    credentials: "same-origin",
    headers:
      body === undefined
        ? { Accept: "application/json" }
        : { Accept: "application/json", "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * What went wrong, for a toast: the API's own `message` when it sent one, else SPEC section 8's
 * generic form, the status code, a colon and a space, then the response text (or status text).
 */
export async function failureMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body: unknown = JSON.parse(text);
    if (
      body &&
      typeof body === "object" &&
      "message" in body &&
      typeof body.message === "string" &&
      body.message
    ) {
      return body.message;
    }
  } catch {
    // Not JSON: the generic form below.
  }
  return `${response.status}: ${text || response.statusText}`;
}
