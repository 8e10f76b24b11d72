/** `catalog SPEC|MODEL [-o FILE] [--previous OLD]`: the tool catalog of a release. */
import { writeFile } from "node:fs/promises";
import { Command } from "commander";
import { throwOutputError } from "../generator/shared/output-errors.js";
import { failWith } from "../model/diagnostics.js";
import { parseAtLeast } from "./options.js";
import { parseOutputPath } from "./output-path.js";
import { addToolSetOptions, readPublishedModel, type ToolSetFlags } from "./tool-set.js";

type CatalogFlags = ToolSetFlags & {
  output?: string;
  previous?: string;
  retention?: number;
  catalogVersion?: string;
};

export function createCatalogCommand(): Command {
  const command = new Command("catalog")
    .description(
      "write the tool catalog of a spec: catalogVersion, and per tool its contractVersion, compatibility with --previous, digest, source and status",
    )
    .argument("<spec>", "spec file, http(s) URL, - for stdin, or a model file saved by `model`")
    .option(
      "-o, --output <file>",
      "where to write the catalog: .json, or .yaml/.yml for YAML (default: JSON on standard output)",
      parseOutputPath,
    )
    .option(
      "--previous <catalog>",
      "the catalog of the previous release: contract versions are carried from it and bumped on a breaking change",
    )
    .option(
      "--retention <releases>",
      "releases a removed tool stays listed as removed (default: the previous catalog's, else 3; 0 drops it at once)",
      parseAtLeast(0),
    )
    .option(
      "--catalog-version <version>",
      "the release's catalogVersion (MAJOR.MINOR.PATCH) instead of the one the changes give",
    );
  addToolSetOptions(command);
  return command.action(async (spec: string, flags: CatalogFlags) => {
    const [{ buildCatalog }, { readCatalogFile }, { isCatalogVersion }, { countChanges }] = await Promise.all(
      [
        import("../contracts/catalog.js"),
        import("../contracts/catalog-file.js"),
        import("../contracts/catalog-version.js"),
        import("../contracts/diff-tools.js"),
      ],
    );
    if (flags.catalogVersion !== undefined && !isCatalogVersion(flags.catalogVersion)) {
      failWith(
        "OMB_CATALOG_VERSION",
        `--catalog-version "${flags.catalogVersion}" is not MAJOR.MINOR.PATCH`,
        {
          hint: "give three whole numbers, e.g. --catalog-version 2.0.0",
        },
      );
    }
    // The previous catalog is read first: -o may name the same file.
    const previous = flags.previous !== undefined ? await readCatalogFile(flags.previous) : undefined;
    const { model, completeResults } = await readPublishedModel(spec, flags, "catalog");
    const { catalog, changes } = buildCatalog({
      model,
      completeResults,
      ...(previous !== undefined ? { previous } : {}),
      ...(flags.retention !== undefined ? { retention: flags.retention } : {}),
      ...(flags.catalogVersion !== undefined ? { catalogVersion: flags.catalogVersion } : {}),
    });
    const output = flags.output ?? "-";
    const yaml = /\.ya?ml$/i.test(output);
    const text = yaml
      ? await (await import("../contracts/catalog-file.js")).formatCatalogYaml(catalog)
      : `${JSON.stringify(catalog, null, 2)}\n`;
    if (output === "-") process.stdout.write(text);
    else await writeFile(output, text).catch((error: unknown) => throwOutputError(error, output, "file"));
    const live = catalog.tools.filter((t) => t.status !== "removed").length;
    const { bySeverity } = countChanges(changes);
    const since =
      previous === undefined
        ? ""
        : ` (from ${previous.catalogVersion}: ${bySeverity.breaking} breaking, ${bySeverity.compatible} compatible, ${bySeverity.docs} docs changes)`;
    process.stderr.write(
      `openapi-mcp-bridge: catalog ${catalog.catalogVersion}${since}, ${live} tool${live === 1 ? "" : "s"}` +
        `${catalog.tools.length > live ? ` and ${catalog.tools.length - live} removed` : ""}` +
        `${output === "-" ? "" : ` written to ${output}`}\n`,
    );
  });
}
