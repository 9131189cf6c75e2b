import type { RouterContextProvider } from "react-router";
import { auditServices } from "../audit-context.server.ts";
import { type AuditRefusal, runTimedInSlot } from "../audit-slots.server.ts";
import { parseTargetUrl } from "../target-policy.server.ts";
import { runLabCheck } from "./lab-check.server.ts";
import { chromiumPath } from "./lab-chromium.server.ts";
import { saveLabCheck } from "./lab-store.server.ts";
import { LAB_DEVICES, type LabDevice, type LabResult } from "./lab-types.ts";

// POST /api/admin/lab-check and the audit page's form: check the input, wait for one of the
// audits' slots (AUDIT_MAX_RUNNING / AUDIT_MAX_QUEUED: a lab check is the heaviest audit there is),
// run it in its child process group, store what was measured, answer.

type Context = Readonly<RouterContextProvider>;

export type LabOutcome =
  | { ok: true; status: 200; result: LabResult & { id: number } }
  /** 422: measured nothing (refused, not loaded, too slow, too big); the result says why. */
  | { ok: false; status: 422; result: LabResult; message: string }
  /** 400: a bad address or device; 503: busy, or no Chromium on this machine. */
  | AuditRefusal;

export function parseLabDevice(raw: unknown): LabDevice | null {
  if (raw === undefined || raw === null || raw === "") return "mobile";
  return typeof raw === "string" && (LAB_DEVICES as readonly string[]).includes(raw)
    ? (raw as LabDevice)
    : null;
}

export async function runLabCheckForAdmin(
  context: Context,
  input: { url: unknown; device: unknown },
  actor: string,
): Promise<LabOutcome> {
  const target = parseTargetUrl(typeof input.url === "string" ? input.url : "");
  if (!target.ok) return { ok: false, status: 400, message: target.details, error: target.error };
  const device = parseLabDevice(input.device);
  if (!device)
    return {
      ok: false,
      status: 400,
      message: 'The device must be "mobile" or "desktop".',
      error: "Invalid device",
    };
  const { database, env, auditSlots } = await auditServices(context);
  const slot = await runTimedInSlot(auditSlots, "lab", () =>
    runLabCheck(target.url.href, {
      device,
      allowPrivate: env.AUDIT_ALLOW_PRIVATE_TARGETS,
      chromiumPath: chromiumPath(env),
    }),
  );
  if (!slot.ok) return slot;
  const { failure, ...shown } = slot.value;
  if (failure === "chromium-missing") {
    slot.done("failed");
    return { ok: false, status: 503, message: shown.details ?? "", error: shown.error ?? "" };
  }
  if (failure === "crash") console.error(`Lab check of ${target.url.host}: ${shown.details}`);
  if (failure) {
    slot.done(failure === "refused" ? "refused" : "failed");
    return { ok: false, status: 422, result: shown, message: shown.details ?? shown.error ?? "" };
  }
  slot.done("measured");
  const record = await saveLabCheck(database.db, shown, actor);
  return { ok: true, status: 200, result: { ...shown, id: record.id } };
}
