/**
 * A task of several requests (requests.ts) and an API the task names (rank.ts namesGroup), on a
 * small catalogue shaped like StableToolBench's: many APIs (tags), several near-identical.
 */
import { describe, expect, it } from "vitest";
import { readOperationShape } from "../../../../../src/runtime/discovery/search/intent.js";
import { namesGroup } from "../../../../../src/runtime/discovery/search/rank.js";
import { asksSeveral } from "../../../../../src/runtime/discovery/search/requests.js";
import { splitWords, toTerms } from "../../../../../src/runtime/discovery/search/tokenize.js";
import { createOperationSearch } from "../../../../../src/runtime/discovery/search.js";
import { planSpec } from "../../../../e2e/safety-support.js";

const ok = { "200": { description: "OK" } };
const get = (operationId: string, summary: string, tag: string, description = "") => ({
  get: { operationId, summary, description, tags: [tag], responses: ok },
});

/** Five QR code APIs alike, one of them with two operations; a password API; unrelated fillers. */
const CATALOGUE = planSpec({
  paths: {
    "/qr-one/generate": get("qrOneGenerate", "Generate QR code image", "QR One", "Returns a QR code image."),
    "/qr-one/list": get("qrOneList", "List QR code images", "QR One", "The QR code images made so far."),
    "/qr-two/generate": get("qrTwoGenerate", "Generate QR code image", "QR Two", "Returns a QR code image."),
    "/qr-three/generate": get("qrThreeGenerate", "Generate QR code image", "QR Three", "A QR code image."),
    "/qr-four/generate": get("qrFourGenerate", "Generate QR code image", "QR Four", "A QR code image."),
    "/qr-five/generate": get("qrFiveGenerate", "Generate QR code image", "QR Five", "A QR code image."),
    "/secrets/make": get("makeSecret", "Random password", "Passwords", "Returns a random password."),
    "/anime-finder/anime/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      ...get("animeFinderById", "Get anime by id", "Anime Finder"),
    },
    "/anime-db/anime/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      ...get("animeDbById", "Get anime by id", "Anime DB_v2"),
    },
    ...Object.fromEntries(
      ["weather", "stocks", "flights", "recipes", "jokes", "news", "music", "books", "maps", "sports"].map(
        (topic) => [`/${topic}`, get(`list_${topic}`, `List ${topic}`, `${topic} api`)],
      ),
    ),
  },
}).tools;

const rank = (query: string) =>
  createOperationSearch(CATALOGUE)
    .search(query, { limit: 10 })
    .map((h) => h.name);

describe("a task of several requests", () => {
  it.each<[string, boolean]>([
    ["Generate a QR code for the party. Also, I need a strong password.", true],
    ["Additionally, fetch the details of an order.", true],
    ["Convert 500 euros to dollars! Finally, roll a die.", true],
    ["Can you check the weather? Then tell me the sea temperature.", true],
    ["I also need the details of an order.", false],
    ["It is finally here: the list of new releases.", false],
    ["Generate a QR code for the party and a strong password.", false],
  ])("%j asks for several things: %s", (query, several) => {
    expect(asksSeveral(query)).toBe(several);
  });

  const QR_TASK = "Create a QR code image for my party invitations";
  const PASSWORD_ASK = "I need a password too";

  const single = () => rank(`${QR_TASK}, and ${PASSWORD_ASK.toLowerCase()}.`);
  const several = () => rank(`${QR_TASK}. Also, ${PASSWORD_ASK.toLowerCase()}.`);

  it("a later request's answer comes before another API's copy of an answer given", () => {
    // One request: the QR code generators of five APIs, alike, then the password.
    expect(single().indexOf("makeSecret")).toBe(6);
    // Two: QR One's, then the password, then the other APIs' generators in their order.
    expect(several()).toEqual([
      "qrOneList",
      "qrOneGenerate",
      "makeSecret",
      "qrTwoGenerate",
      "qrThreeGenerate",
      "qrFourGenerate",
      "qrFiveGenerate",
    ]);
  });

  it("an API already among the results is not discounted: its other operations keep their place", () => {
    for (const names of [single(), several()]) {
      expect(names.slice(0, 2)).toEqual(["qrOneList", "qrOneGenerate"]);
    }
  });
});

describe("an API the task names", () => {
  it.each<[string, string, boolean]>([
    ["using the Anime DB API", "Anime DB", true],
    ["the anime db api", "Anime DB", true],
    ["using the Anime DB", "Anime DB", false],
    ["the DB Anime API", "Anime DB", false],
    ["check the health of the Shazam API", "Shazam API", true],
    ["using Shazam", "Shazam API", false],
    ["any API at all", "", false],
    ["any API at all", "API", false],
  ])("%j names %j: %s", (query, tag, named) => {
    expect(namesGroup(toTerms(splitWords(query)), toTerms(splitWords(tag)))).toBe(named);
  });

  it("reads an API's versions as one API: its tag without the trailing version", () => {
    const tool = CATALOGUE.find((t) => t.name === "animeDbById")!;
    expect(readOperationShape(tool).group).toEqual(toTerms(splitWords("Anime DB")));
  });

  it("ranks the named API's operation before its twin", () => {
    const ask = "Fetch information about the anime with ID 1";
    expect(rank(`${ask} using the Anime DB API.`).slice(0, 2)).toEqual(["animeDbById", "animeFinderById"]);
    // Not named as an API: the twins tie, in the spec's order.
    expect(rank(`${ask}.`).slice(0, 2)).toEqual(["animeFinderById", "animeDbById"]);
  });
});
