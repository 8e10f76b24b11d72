/** Words of identifiers, paths and prose, and the terms search keeps of them. */
import { describe, expect, it } from "vitest";
import { hasName } from "../../../../../src/runtime/discovery/search/intent.js";
import { splitPathWords, splitWords, toTerms } from "../../../../../src/runtime/discovery/search/tokenize.js";

describe("splitWords", () => {
  it.each([
    ["listUserRepos", ["list", "user", "repos"]],
    ["list_user_repos", ["list", "user", "repos"]],
    ["list-user-repos", ["list", "user", "repos"]],
    ["HTMLPage", ["html", "page"]],
    ["getV2Users", ["get", "v2", "users"]],
    ["me.user.GetUser", ["me", "user", "get", "user"]],
    ["What's the weather in Paris, 2024?", ["what", "the", "weather", "in", "paris", "2024"]],
    ["a b 7", ["7"]],
    ["Größe ändern", ["größe", "ändern"]],
  ])("%s", (text, want) => {
    expect(splitWords(text)).toEqual(want);
  });
});

describe("splitPathWords", () => {
  it.each([
    ["/pets/{petId}", ["pets"]],
    ["/me/mailFolders/{mailFolder-id}/messages", ["me", "mail", "folders", "messages"]],
    ["/drives/{drive-id}/microsoft.graph.delta()", ["drives", "delta"]],
    ["/users/{id}/photos/{size}/$value", ["users", "photos", "value"]],
    ["/api/v3/PublicHolidays/{year}/{countryCode}", ["api", "v3", "public", "holidays"]],
  ])("%s", (path, want) => {
    expect(splitPathWords(path)).toEqual(want);
  });
});

describe("toTerms", () => {
  it.each([
    [
      ["list", "my", "messages"],
      ["list", "messag"],
    ],
    [["please", "tell", "me", "the", "weather"], ["weather"]],
    [
      ["access", "review", "c7043eb4"],
      ["access", "review"],
    ],
    [["get", "the", "users"], ["user"]],
  ])("%j → %j", (words, want) => {
    expect(toTerms(words)).toEqual(want);
  });
});

describe("hasName: a task that names something", () => {
  it.each([
    ["Who directed Titanic?", true],
    ['Find the anime "Your Lie in April"', true],
    ["synchronize 'Naruto' with my tracker", true],
    ["Titanic's director", false],
    ["list my messages. I want them all", false],
    ["delete a user", false],
  ])("%s: %s", (query, want) => {
    expect(hasName(query)).toBe(want);
  });
});
