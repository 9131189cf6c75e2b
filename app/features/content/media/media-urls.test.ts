import { describe, expect, it } from "vitest";
import { parseVariantAddress, variantUrl } from "./media-urls.ts";

describe("variant addresses", () => {
  const hash = "3fa9c1d2e4b5a6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5";

  it("name the image, the width, the bytes' hash and the format, and read back the same", () => {
    const url = variantUrl(42, { format: "jpeg", width: 960, contentHash: hash });
    expect(url).toBe("/media/42/960-3fa9c1d2e4b5a6c7.jpg");
    const [, , id, file] = url.split("/");
    expect(parseVariantAddress(id, file)).toEqual({
      mediaId: 42,
      width: 960,
      hashPrefix: "3fa9c1d2e4b5a6c7",
      format: "jpeg",
    });
    expect(variantUrl(42, { format: "avif", width: 480, contentHash: hash })).toBe(
      "/media/42/480-3fa9c1d2e4b5a6c7.avif",
    );
  });

  it.each([
    ["0", "960-3fa9c1d2e4b5a6c7.jpg"],
    ["042", "960-3fa9c1d2e4b5a6c7.jpg"],
    ["42", "960-3fa9c1d2e4b5a6c7.jpeg"],
    ["42", "960-3FA9C1D2E4B5A6C7.jpg"],
    ["42", "960-3fa9c1d2e4b5a6.jpg"],
    ["42", "960-3fa9c1d2e4b5a6c7.svg"],
    ["42", "960-3fa9c1d2e4b5a6c7.jpg.html"],
    ["42", "0960-3fa9c1d2e4b5a6c7.jpg"],
    ["42", "999999-3fa9c1d2e4b5a6c7.jpg"],
    ["99999999999999999", "960-3fa9c1d2e4b5a6c7.jpg"],
    ["42", "../960-3fa9c1d2e4b5a6c7.jpg"],
    [undefined, undefined],
  ])("refuse anything else: %s/%s", (id, file) => {
    expect(parseVariantAddress(id, file)).toBeNull();
  });
});
