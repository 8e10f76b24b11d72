/**
 * describe_operations' `returns`: the names of an answer's fields in the notation of `fields`,
 * breadth first within a number of characters: every field of the answer before any field of a
 * field, `{…}` and `…` where names did not fit, few links named and many counted.
 */
import { describe, expect, it } from "vitest";
import type { ResultFieldsNode } from "../../../../src/model/types.js";
import { NAMED_LINKS, showReturns } from "../../../../src/runtime/discovery/describe-returns.js";

const USER: ResultFieldsNode = {
  fields: { login: {}, id: {}, type: {} },
  links: ["avatar_url", "html_url", "followers_url", "repos_url", "events_url", "gists_url", "starred_url"],
};
const ISSUE: ResultFieldsNode = {
  fields: { number: {}, title: {}, user: USER, labels: { list: true, fields: { name: {}, color: {} } } },
  links: ["html_url"],
};

describe("showReturns", () => {
  it.each<{ given: string; fields: ResultFieldsNode; max?: number; want: string }>([
    {
      given: "an object of scalars",
      fields: { fields: { id: {}, name: {}, status: {} } },
      want: "{id, name, status}",
    },
    {
      given: "a list",
      fields: { list: true, fields: { id: {}, name: {} } },
      want: "[]{id, name}",
    },
    {
      given: "nested objects and lists, and a list of scalars",
      fields: {
        fields: {
          total_count: {},
          jobs: {
            list: true,
            fields: { name: {}, steps: { list: true, fields: { name: {} } }, tags: { list: true } },
          },
        },
      },
      want: "{total_count, jobs[]{name, steps[]{name}, tags[]}}",
    },
    {
      given: "few links (named) and many (counted)",
      fields: { list: true, ...ISSUE },
      want: "[]{number, title, user{login, id, type, html_url, +6 links}, labels[]{name, color}, html_url}",
    },
    {
      given: "fields past the cap on names, or deeper than they go",
      fields: { fields: { id: {}, owner: { more: 4 } }, more: 30 },
      want: "{id, owner{…}, …}",
    },
    {
      given: "no room for a field's fields: the answer's own fields come first",
      fields: { list: true, ...ISSUE },
      max: 54,
      want: "[]{number, title, user{…}, labels[]{…}, html_url}",
    },
    {
      given: "no room for all the answer's fields",
      fields: { list: true, ...ISSUE },
      max: 24,
      want: "[]{number, title, …}",
    },
  ])("$given", ({ fields, max = 600, want }) => {
    const text = showReturns(fields, max);
    expect(text).toBe(want);
    expect(text.length).toBeLessThanOrEqual(max);
  });

  it("names links up to NAMED_LINKS and counts more", () => {
    const links = (n: number) => Array.from({ length: n }, (_, i) => `l${i}_url`);
    expect(showReturns({ links: links(NAMED_LINKS) }, 600)).toBe(`{${links(NAMED_LINKS).join(", ")}}`);
    expect(showReturns({ links: links(NAMED_LINKS + 1) }, 600)).toBe(`{+${NAMED_LINKS + 1} links}`);
  });

  it("stays within the characters asked for, however many fields there are", () => {
    const wide: ResultFieldsNode = {
      fields: Object.fromEntries(
        Array.from({ length: 80 }, (_, i) => [`field_number_${i}`, i % 3 === 0 ? USER : {}]),
      ),
      links: Array.from({ length: 40 }, (_, i) => `x${i}_url`),
    };
    for (const max of [30, 60, 120, 240, 400, 600]) {
      expect(showReturns(wide, max).length, String(max)).toBeLessThanOrEqual(max);
    }
  });
});
