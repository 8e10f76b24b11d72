import { describe, expect, it } from "vitest";
import { isGenericStatusText } from "../../../../src/runtime/results/generic-status-text.js";

describe("isGenericStatusText", () => {
  it.each([
    { description: "Error response.", statusText: "", want: true },
    { description: "Successful response.", statusText: "", want: true },
    { description: "OK", statusText: "", want: true },
    { description: "Unexpected error", statusText: "", want: true },
    { description: "Bad Request", statusText: "Bad Request", want: true },
    { description: "400 error", statusText: "Bad Request", want: true },
    { description: "Not found", statusText: "Not Found", want: true },
    { description: "", statusText: "", want: true },
    { description: "No pet has this id.", statusText: "Not Found", want: false },
    { description: "Validation failed.", statusText: "Unprocessable Entity", want: false },
    { description: "Rate limit exceeded", statusText: "Too Many Requests", want: false },
    { description: "The created pet.", statusText: "", want: false },
    { description: "error ".repeat(20), statusText: "", want: false },
  ])("$description ($statusText) → $want", ({ description, statusText, want }) => {
    expect(isGenericStatusText(description, statusText)).toBe(want);
  });
});
