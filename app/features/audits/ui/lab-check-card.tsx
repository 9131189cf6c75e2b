import { type FormEvent, useEffect, useState } from "react";
import { Form } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { UrlInput } from "#app/components/ui/input.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { failureMessage, NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { LAB_DEVICES, type LabDevice, type LabResult } from "../lab/lab-types.ts";
import { LabResultView, ScoreGauge } from "./lab-result-view.tsx";

export const LAB_CHECK_API = "/api/admin/lab-check";

export const LAB_TEXT = {
  title: "Lab check",
  run: "Run lab check",
  running: "Running Lighthouse...",
  complete: "Lab Check Complete",
  failed: "Lab Check Failed",
  pending: "Lighthouse is loading the page in headless Chromium. This takes 10 to 40 seconds.",
} as const;

/** What the page's action answered to a lab check posted without JavaScript. */
export type LabFormOutcome =
  | { result: LabResult; refused?: undefined }
  | { refused: string; result?: LabResult };

export type LabHistoryRow = {
  id: number;
  date: string;
  url: string;
  device: LabDevice;
  score: number;
  error: string | null;
};

function isLabResult(body: unknown): body is LabResult {
  return !!body && typeof body === "object" && "metrics" in body && "score" in body && "device" in body;
}

function Elapsed() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, []);
  return <span className="tabular-nums">{seconds} s</span>;
}

/**
 * Issue 25's "Lab check" card: a URL and a device, Lighthouse's performance category as PageSpeed
 * Insights shows it. Without JavaScript the form posts `intent=lab` to the page's action (the
 * browser waits the 10-40 s); with it, the JSON API and a pending state.
 */
export function LabCheckCard({
  defaultUrl,
  action,
  posted,
  latest,
  history,
}: {
  defaultUrl: string;
  action: string;
  posted: LabFormOutcome | null;
  latest: { result: LabResult; date: string } | null;
  history: LabHistoryRow[];
}) {
  const hydrated = useHydrated();
  const [running, setRunning] = useState(false);
  const [checked, setChecked] = useState<LabResult | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const shown = checked ?? posted?.result ?? latest?.result ?? null;
  const refused = refusal ?? posted?.refused ?? null;

  async function run(url: string, device: LabDevice) {
    setRunning(true);
    setRefusal(null);
    try {
      const response = await sendJson(LAB_CHECK_API, "POST", { url, device });
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => null);
      if (isLabResult(body)) {
        setChecked(body);
        if (body.error) toast({ title: LAB_TEXT.failed, description: body.error, variant: "destructive" });
        else toast({ title: LAB_TEXT.complete, description: `Performance score ${body.score}` });
        return;
      }
      const message = await failureMessage(response);
      setRefusal(message);
      toast({ title: LAB_TEXT.failed, description: message, variant: "destructive" });
    } catch {
      setRefusal(NETWORK_ERROR);
      toast({ title: LAB_TEXT.failed, description: NETWORK_ERROR, variant: "destructive" });
    } finally {
      setRunning(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (running) return;
    const form = new FormData(event.currentTarget);
    const url = String(form.get("url") ?? "").trim();
    const device = form.get("device") === "desktop" ? "desktop" : "mobile";
    if (!url) {
      setRefusal("Please enter a URL to check.");
      return;
    }
    void run(url, device);
  }

  return (
    <section
      aria-labelledby="lab-heading"
      className="rounded-xl border border-line bg-white p-6 shadow-sm"
      data-testid="lab-card"
      id="lab-check"
    >
      <h2 id="lab-heading" className="text-xl font-semibold">
        {LAB_TEXT.title}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Loads the page in headless Chromium with Lighthouse, as PageSpeed Insights does, and rates what a
        visitor feels. Requests the page makes to private or cloud metadata addresses are refused and listed.
      </p>

      <Form
        method="post"
        action={`${action}#lab-check`}
        noValidate
        onSubmit={hydrated ? onSubmit : undefined}
        className="mt-4 grid gap-4"
        aria-busy={running || undefined}
      >
        <div className="grid gap-1.5">
          <label htmlFor="lab-url" className="font-semibold">
            Page URL
          </label>
          <UrlInput id="lab-url" name="url" defaultValue={defaultUrl} />
        </div>
        <fieldset className="flex flex-wrap items-center gap-x-6 gap-y-2">
          <legend className="mb-1.5 font-semibold">Device</legend>
          {LAB_DEVICES.map((device) => (
            <label key={device} className="inline-flex items-center gap-2">
              <input
                type="radio"
                name="device"
                value={device}
                defaultChecked={device === (posted?.result?.device ?? "mobile")}
                className="size-4 accent-brand"
              />
              {device === "mobile" ? "Mobile (slow 4G, throttled CPU)" : "Desktop"}
            </label>
          ))}
        </fieldset>
        <div>
          <Button
            type="submit"
            name="intent"
            value="lab"
            aria-disabled={running || undefined}
            className="aria-disabled:cursor-progress aria-disabled:opacity-70"
          >
            {running ? LAB_TEXT.running : LAB_TEXT.run}
          </Button>
        </div>
      </Form>

      {running ? (
        <div
          className="mt-4 flex items-center gap-3 rounded-lg border border-line bg-slate-50 px-4 py-3"
          role="status"
          data-testid="lab-pending"
        >
          <span className="size-4 shrink-0 animate-spin rounded-full border-2 border-brand border-t-transparent" />
          <span>
            {LAB_TEXT.pending} <Elapsed />
          </span>
        </div>
      ) : null}
      {refused && !running ? (
        <Banner tone="error" className="mt-4">
          <strong className="font-semibold">{LAB_TEXT.failed}.</strong> {refused}
        </Banner>
      ) : null}

      {shown ? (
        <div className={running ? "mt-2 opacity-50" : "mt-2"}>
          <LabResultView result={shown} checkedAt={shown === latest?.result ? latest.date : undefined} />
        </div>
      ) : null}

      {history.length > 1 ? (
        <div className="mt-6">
          <h3 className="font-semibold">Recent lab checks</h3>
          <ul className="mt-2 divide-y divide-line rounded-lg border border-line text-sm">
            {history.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center gap-3 px-3 py-2">
                {row.error ? (
                  <span className="font-semibold text-danger">Error</span>
                ) : (
                  <ScoreGauge score={row.score} size={36} />
                )}
                <span className="min-w-0 flex-1 break-all">{row.url}</span>
                <span className="text-ink-muted">
                  {row.device === "desktop" ? "Desktop" : "Mobile"}, {row.date}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
