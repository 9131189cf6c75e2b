import { describe, expect, it } from "vitest";
import {
  HOLD_SCORE,
  judge,
  parseSignals,
  SPAM_POINTS,
  spamVerdict,
  type VerdictInput,
} from "./spam-verdict.ts";

const person: VerdictInput = {
  honeypot: "",
  fullName: "Siobhán O'Connor-Smith",
  company: "O'Connor & Daughters (Civil Engineering) Ltd.",
  message: "We run 30 projects. Our tender portal: https://tenders.oconnor.example",
  otherDetails: null,
  token: { kind: "ok" },
  rate: { count: 1, limit: 10 },
};

const signalsOf = (input: Partial<VerdictInput>) =>
  spamVerdict({ ...person, ...input }).signals.map((signal) => signal.signal);

describe("spam verdict", () => {
  it("finds nothing in a real person's submission, links in the message included", () => {
    expect(spamVerdict(person)).toEqual({ level: "clean", score: 0, signals: [], summary: null });
  });

  it("holds the honeypot on its own", () => {
    expect(spamVerdict({ ...person, honeypot: "x" })).toMatchObject({ level: "held", score: 100 });
  });

  it.each([
    ["missing", { kind: "missing" }, "token-missing"],
    ["forged", { kind: "invalid", detail: "forged page cookie" }, "token-invalid"],
    ["too fast", { kind: "too-fast", detail: "sent 200 ms after the first page view" }, "too-fast"],
    ["expired", { kind: "expired" }, "token-expired"],
  ] as const)("only marks a %s token for review", (_name, token, signal) => {
    const verdict = spamVerdict({ ...person, token });
    expect(verdict.level).toBe("review");
    expect(verdict.signals.map((s) => s.signal)).toEqual([signal]);
  });

  it("never holds timing, token and rate signals together without a content signal", () => {
    const verdict = spamVerdict({
      ...person,
      token: { kind: "invalid", detail: "forged page cookie" },
      rate: { count: 10, limit: 10 },
    });
    expect(verdict.level).toBe("review");
    expect(verdict.score).toBeLessThan(HOLD_SCORE);
  });

  it("fires the rate signal past half the limit, and never when the limit is off", () => {
    expect(signalsOf({ rate: { count: 5, limit: 10 } })).toEqual([]);
    expect(signalsOf({ rate: { count: 6, limit: 10 } })).toEqual(["rate"]);
    expect(signalsOf({ rate: { count: 500, limit: 0 } })).toEqual([]);
  });

  it.each([
    ["a URL in the name", { fullName: "Buy now https://x.example" }, "link-in-name"],
    ["a bare domain in the name", { fullName: "seo-services.com" }, "link-in-name"],
    ["markup in the name", { fullName: "<b>Winner</b>" }, "markup-in-name"],
    ["BBCode in the name", { fullName: "[url=x]Win[/url]" }, "markup-in-name"],
    ["an address in the name", { fullName: "jane@example.com" }, "email-in-name"],
    ["an address after a name", { fullName: "Jane Doe jane.doe@mail.example.co.uk" }, "email-in-name"],
    ["a URL in the company", { company: "www.cheap-pills.example" }, "link-in-company"],
    ["markup in the company", { company: "<i>Acme</i>" }, "markup-in-company"],
    [
      "three links in the message",
      { message: "https://a.example https://b.example www.c.example" },
      "many-links",
    ],
  ])("sees %s as a content signal that alone only asks for review", (_name, input, signal) => {
    const verdict = spamVerdict({ ...person, ...input });
    expect(verdict.signals.map((s) => s.signal)).toContain(signal);
    if (verdict.signals.length === 1) expect(verdict.level).toBe("review");
  });

  it.each(["@Alex Ward", "Alex @ Acme", "Alex@Ward", "Jane O'Neil (@jane)"])(
    "sees no address in the name %j: an @ alone is no email address (issue 22)",
    (fullName) => {
      expect(signalsOf({ fullName })).toEqual([]);
    },
  );

  it("holds a content signal with another signal once the score reaches the threshold", () => {
    expect(
      spamVerdict({ ...person, fullName: "seo-services.com", token: { kind: "missing" } }),
    ).toMatchObject({
      level: "held",
      score: SPAM_POINTS["link-in-name"] + SPAM_POINTS["token-missing"],
    });
    // 30 + 5 = 35: below the threshold, so still only review.
    expect(spamVerdict({ ...person, fullName: "jane@acme.example", token: { kind: "expired" } }).level).toBe(
      "review",
    );
  });

  it("summarises every reason on one line", () => {
    expect(spamVerdict({ ...person, honeypot: "x", token: { kind: "missing" } }).summary).toBe(
      "honeypot field filled in; no page cookie (sent without visiting the site)",
    );
  });

  it("reads stored signals back and ignores anything malformed", () => {
    const stored = JSON.stringify([{ signal: "rate", points: 15, detail: "6 submissions" }, { bogus: 1 }]);
    expect(parseSignals(stored)).toEqual([{ signal: "rate", points: 15, detail: "6 submissions" }]);
    expect(parseSignals("not json")).toEqual([]);
    expect(judge(parseSignals(stored)).level).toBe("review");
  });
});
