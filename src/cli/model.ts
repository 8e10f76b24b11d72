/**
 * `model SPEC -o FILE`: save the planned model so `serve` can start from it quickly (in the lazy
 * layout of model/lazy-model.ts: the index first, each tool's schemas read when needed), with the
 * search index of discovery mode, so a saved model searches without building it again, and the
 * tools' contract digests, which every tools/list shows.
 */
import { Command } from "commander";
import { throwOutputError } from "../generator/shared/output-errors.js";
import { createProgress } from "../generator/shared/progress.js";
import { writeFileAtomically } from "../generator/shared/write-atomic.js";
import { serializeLazyModel } from "../model/lazy-model.js";
import { serializeModel } from "../model/serialize.js";
import { readOrBuildSearchIndex } from "../runtime/discovery/search.js";
import { saveContractDigests } from "../runtime/server/saved-digests.js";
import { addSpecOptions, readModelOrSpec, type SpecFlags } from "./options.js";
import { parseOutputPath } from "./output-path.js";

export function createModelCommand(): Command {
  const command = new Command("model")
    .description("build the bridge model of a spec and save it as JSON (serve starts faster from it)")
    .argument("<spec>", "spec file, http(s) URL or - for stdin")
    .requiredOption("-o, --output <file>", "where to write the model (- for stdout)", parseOutputPath);
  addSpecOptions(command);
  return command.action(async (spec: string, flags: SpecFlags & { output: string }) => {
    const progress = createProgress("model");
    const model = await readModelOrSpec(spec, flags, progress.step);
    progress.step("write");
    const saved = {
      ...model,
      searchIndex: readOrBuildSearchIndex(model),
      contractDigests: saveContractDigests(model.tools),
    };
    if (flags.output === "-") {
      // One JSON document on stdout, for a pipe (jq, a diff); a file gets the lazy layout.
      progress.done();
      process.stdout.write(serializeModel(saved));
    } else {
      await writeFileAtomically(flags.output, serializeLazyModel(saved)).catch((error: unknown) =>
        throwOutputError(error, flags.output, "file"),
      );
      progress.done();
      process.stderr.write(`openapi-mcp-bridge: wrote ${model.tools.length} tools to ${flags.output}\n`);
    }
  });
}
