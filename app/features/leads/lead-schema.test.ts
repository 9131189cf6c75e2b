import { describe, expect, it } from "vitest";
import { INVESTOR_MESSAGE, LEAD_LIMITS, parseLeadSubmission } from "./lead-schema.ts";

const demo = {
  fullName: "Amara Okafor",
  email: "amara@okafor.co.uk",
  company: "Okafor Ltd",
  phone: "020 7946 0321",
};

describe("parseLeadSubmission", () => {
  it("accepts a demo request, trims text and turns an empty message into null", () => {
    expect(parseLeadSubmission({ ...demo, fullName: " Amara Okafor ", message: "" })).toEqual({
      success: true,
      data: { requestType: "demo", ...demo, message: null },
    });
  });

  it.each([
    ["phone", "123456", "Please enter a valid phone number"],
    ["phone", "1234567", null],
    ["phone", "+44 (0)20 7946-0321", null],
    ["phone", "0800 CALL ME", "Please enter a valid phone number"],
    ["email", "amara@okafor", "Please enter a valid email address"],
    ["email", "amara@@okafor.co.uk", "Please enter a valid email address"],
    ["email", "amara.o+leads@okafor.co.uk", null],
    ["fullName", "", "Please enter your full name"],
    ["company", "   ", "Please enter your company name"],
  ])("demo %s %j → %s", (field, value, message) => {
    const result = parseLeadSubmission({ ...demo, [field]: value });
    if (message === null) expect(result.success).toBe(true);
    else expect(result).toEqual({ success: false, errors: { [field]: message } });
  });

  it("applies the investor rules and messages of SPEC section 5", () => {
    const result = parseLeadSubmission({
      requestType: "investor",
      fullName: "J",
      company: "N",
      email: "x",
      phone: "1234",
    });
    expect(result).toEqual({
      success: false,
      errors: {
        fullName: "Full name must be at least 2 characters",
        company: "Company name must be at least 2 characters",
        email: "Please enter a valid email address",
        phone: "Please enter a valid phone number",
      },
    });
  });

  it("keeps other details only when 'other' is ticked, and sets the fixed message when none is sent", () => {
    const base = {
      requestType: "investor",
      fullName: "Jo",
      company: "NA",
      email: "jo@na.se",
      phone: "12345",
    };
    const ticked = parseLeadSubmission({
      ...base,
      investorType: { other: true },
      otherDetails: "Family office",
    });
    const unticked = parseLeadSubmission({
      ...base,
      investorType: { angel: true },
      otherDetails: "Family office",
    });
    expect(ticked.success && ticked.data).toMatchObject({
      message: INVESTOR_MESSAGE,
      otherDetails: "Family office",
      investorType: { angel: false, vc: false, introducer: false, other: true },
    });
    expect(unticked.success && unticked.data).toMatchObject({
      otherDetails: null,
      investorType: { angel: true },
    });
  });

  it("keeps an investor's own message sent through the API (issue 22)", () => {
    const base = {
      requestType: "investor",
      fullName: "Jo",
      company: "NA",
      email: "jo@na.se",
      phone: "12345",
    };
    const sent = parseLeadSubmission({ ...base, message: "  Series A, £2m ticket\r\nCall after 3pm " });
    expect(sent.success && sent.data.message).toBe("Series A, £2m ticket\r\nCall after 3pm");
    for (const message of ["", "   ", null]) {
      const empty = parseLeadSubmission({ ...base, message });
      expect(empty.success && empty.data.message).toBe(INVESTOR_MESSAGE);
    }
    expect(parseLeadSubmission({ ...base, message: "x".repeat(LEAD_LIMITS.message + 1) })).toMatchObject({
      success: false,
      errors: { message: `Please use at most ${LEAD_LIMITS.message} characters` },
    });
  });
});

describe("control and bidirectional characters (issue 9 point 6)", () => {
  const base = {
    fullName: "Jane Doe",
    email: "jane@example.com",
    company: "Acme Build",
    phone: "020 7946 0958",
  };
  const errorsFor = (overrides: Record<string, unknown>) => {
    const result = parseLeadSubmission({ ...base, ...overrides });
    return result.success ? {} : result.errors;
  };

  it.each([
    ["fullName", "Jane\u0000Doe", "Please enter your full name"],
    ["fullName", "Jane\r\nBcc: x@example.com", "Please enter your full name"],
    ["fullName", "Jane \u202eeoD", "Please enter your full name"],
    ["company", "Acme\u0085Build", "Please enter your company name"],
    ["fullName", "Jane\u2028Doe", "Please enter your full name"],
    ["company", "Acme\u2029Build", "Please enter your company name"],
    ["company", "Acme \u2066Build", "Please enter your company name"],
    ["email", "jane\u007f@example.com", "Please enter a valid email address"],
    ["email", "jane@exa\u202emple.com", "Please enter a valid email address"],
    ["phone", "020\u00007946 0958", "Please enter a valid phone number"],
    ["message", "Hello\u0000", "Please check the highlighted fields"],
    ["message", "bell \u0007", "Please check the highlighted fields"],
  ])("refuses %s %j with the field's message", (field, value, message) => {
    expect(errorsFor({ [field]: value })).toEqual({ [field]: message });
  });

  it("keeps line breaks and tabs in the message and other details", () => {
    expect(parseLeadSubmission({ ...base, message: "Line one\r\nLine two\n\tindented" })).toMatchObject({
      success: true,
      data: { message: "Line one\r\nLine two\n\tindented" },
    });
    const investor = parseLeadSubmission({
      ...base,
      requestType: "investor",
      investorType: { other: true },
      otherDetails: "Family office\r\nLondon",
    });
    expect(investor).toMatchObject({ success: true, data: { otherDetails: "Family office\r\nLondon" } });
  });

  it.each([
    ["fullName", "Jane\tDoe", "Jane Doe"],
    ["fullName", "  Jane \t  Doe\t", "Jane Doe"],
    ["fullName", "Jane\u00a0\u00a0Doe", "Jane Doe"],
    ["company", "Acme\tBuild\u3000Ltd", "Acme Build Ltd"],
  ])("accepts %s %j with each run of tabs and spaces made one space (issue 22)", (field, value, stored) => {
    const demo = parseLeadSubmission({ ...base, [field]: value });
    expect(demo).toMatchObject({ success: true, data: { [field]: stored } });
    const investor = parseLeadSubmission({ ...base, requestType: "investor", [field]: value });
    expect(investor).toMatchObject({ success: true, data: { [field]: stored } });
  });

  it("still refuses a name that is only tabs and spaces, with the form's message", () => {
    expect(errorsFor({ fullName: "\t \t" })).toEqual({ fullName: "Please enter your full name" });
  });

  it("refuses a line break in an investor's name with that form's message", () => {
    const result = parseLeadSubmission({ ...base, requestType: "investor", fullName: "Jane\nDoe" });
    expect(result).toEqual({
      success: false,
      errors: { fullName: "Full name must be at least 2 characters" },
    });
  });
});
