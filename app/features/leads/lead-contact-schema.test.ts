import { describe, expect, it } from "vitest";
import { changedContactFields, contactSnapshot, parseContactWas } from "./lead-contact-schema.ts";

// Issue 35: the lead's edit form saves only what the person changed in it (against what it opened
// with), so two people editing one lead at once do not undo each other's corrections.

const lead = {
  fullName: "Amara Okafor",
  email: "amara@okafor.example",
  company: "Okafor Build",
  phone: "+44 20 7946 0101",
  message: null,
  investorType: { angel: true, vc: false, introducer: false, other: false },
  otherDetails: null,
};
const form = {
  fullName: "Amara Okafor",
  email: "amara@okafor.example",
  company: "Okafor Build",
  phone: "+44 20 7946 0101",
  message: "",
};
const was = contactSnapshot(lead);

describe("changedContactFields", () => {
  it("finds nothing changed in a form sent as it opened (an empty message is no message)", () => {
    expect(changedContactFields(form, was)).toEqual({});
  });

  it("keeps only the fields that differ", () => {
    expect(
      changedContactFields({ ...form, company: "Okafor Group", phone: "+44 20 7946 0202" }, was),
    ).toEqual({
      company: "Okafor Group",
      phone: "+44 20 7946 0202",
    });
  });

  it("sends the investor types with their details, whatever order the ticks came in", () => {
    const ticks = { other: false, introducer: false, vc: false, angel: true };
    expect(changedContactFields({ ...form, investorType: ticks, otherDetails: "" }, was)).toEqual({});
    const other = { angel: true, vc: false, introducer: false, other: true };
    expect(
      changedContactFields({ ...form, investorType: other, otherDetails: "Family office" }, was),
    ).toEqual({
      investorType: other,
      otherDetails: "Family office",
    });
  });

  it("sends every field when the form carries no snapshot (or a broken one)", () => {
    expect(changedContactFields(form, null)).toBe(form);
    expect(parseContactWas("not json")).toBeNull();
    expect(parseContactWas("[1]")).toBeNull();
    expect(parseContactWas(`{"a":"${"x".repeat(2000)}"}`)).toBeNull();
    expect(parseContactWas(JSON.stringify(was))).toEqual(was);
  });
});
