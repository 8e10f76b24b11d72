/** Catalog building: versions carried and bumped, statuses, retention, reading a file back. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { buildCatalog, type CatalogDocument, readEntryContract } from "../../../src/contracts/catalog.js";
import { checkCatalog } from "../../../src/contracts/catalog-file.js";
import { describeContract, stripResults } from "../../../src/contracts/contract.js";
import { BridgeError } from "../../../src/model/diagnostics.js";
import type { ToolNode } from "../../../src/model/types.js";
import { editTool, makeOtherTool, makeTool, prop } from "./tool-factory.js";

const info = { title: "Petstore", version: "1.0.0", specVersion: "3.0" as const };
const pet = makeTool();
const inventory = makeOtherTool();

function release(tools: ToolNode[], previous?: CatalogDocument, extra: { retention?: number } = {}) {
  return buildCatalog({ model: { info, tools }, ...(previous ? { previous } : {}), ...extra });
}

function entry(catalog: CatalogDocument, name: string) {
  const found = catalog.tools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no entry ${name}`);
  return found;
}

describe("a catalog", () => {
  const first = release([pet, inventory]).catalog;

  it("starts at 1.0.0 with every tool new, at contractVersion 1, sorted by name", () => {
    expect(first.catalogVersion).toBe("1.0.0");
    expect(first.tools.map((t) => [t.name, t.contractVersion, t.compatibility, t.status, t.since])).toEqual([
      ["get_inventory", 1, "new", "active", "1.0.0"],
      ["update_pet", 1, "new", "active", "1.0.0"],
    ]);
    expect(entry(first, "update_pet")).toMatchObject({
      operationId: "updatePet",
      method: "PUT",
      path: "/pets/{petId}",
      source: { title: "Petstore", version: "1.0.0", pointer: "/paths/~1pets~1{petId}/put" },
    });
    expect(entry(first, "update_pet").digest).toMatch(/^sha256:[0-9a-f]{16}$/);
  });

  it("stores contracts that give back the tool's digests, with results and without", () => {
    const stored = readEntryContract(entry(first, "update_pet"));
    const live = describeContract(pet);
    expect([stored.digest, stored.docsDigest]).toEqual([live.digest, live.docsDigest]);
    expect(stripResults(stored).digest).toBe(stripResults(live).digest);
    expect(stripResults(live).digest).not.toBe(live.digest);
  });

  it("keeps no prose in the contract it stores", () => {
    expect(JSON.stringify(entry(first, "update_pet").contract)).not.toContain("The pet's id");
  });

  it("is the same catalog when nothing changed (byte for byte)", () => {
    const again = release([inventory, pet], first);
    expect(again.changes).toEqual([]);
    expect(JSON.stringify(again.catalog)).toBe(JSON.stringify(first));
  });

  it("bumps the patch on a docs change, keeping contract versions and the contract digest", () => {
    const next = release(
      [
        editTool(pet, (t) => {
          t.description = "Changes a pet.";
        }),
        inventory,
      ],
      first,
    );
    expect(next.catalog.catalogVersion).toBe("1.0.1");
    const updated = entry(next.catalog, "update_pet");
    expect(updated).toMatchObject({
      contractVersion: 1,
      compatibility: "backward-compatible",
      since: "1.0.0",
    });
    expect(updated.digest).toBe(entry(first, "update_pet").digest);
    expect(updated.docsDigest).not.toBe(entry(first, "update_pet").docsDigest);
  });

  it("bumps the minor on a compatible change", () => {
    const next = release(
      [
        editTool(pet, (t) => {
          prop(t, "status").enum = ["available", "sold", "pending"];
        }),
        inventory,
      ],
      first,
    );
    expect(next.catalog.catalogVersion).toBe("1.1.0");
    expect(entry(next.catalog, "update_pet")).toMatchObject({
      contractVersion: 1,
      compatibility: "backward-compatible",
    });
  });

  it("bumps the major and the tool's contractVersion on a breaking change, and only that tool's", () => {
    const next = release(
      [
        editTool(pet, (t) => {
          prop(t, "status").enum = ["sold"];
        }),
        inventory,
      ],
      first,
    );
    expect(next.catalog.catalogVersion).toBe("2.0.0");
    expect(entry(next.catalog, "update_pet")).toMatchObject({
      contractVersion: 2,
      compatibility: "breaking",
      since: "2.0.0",
    });
    expect(entry(next.catalog, "get_inventory")).toMatchObject({
      contractVersion: 1,
      compatibility: "backward-compatible",
      since: "1.0.0",
    });
  });

  it("marks deprecated operations", () => {
    const next = release(
      [
        editTool(pet, (t) => {
          t.deprecated = true;
        }),
        inventory,
      ],
      first,
    );
    expect(entry(next.catalog, "update_pet").status).toBe("deprecated");
    expect(next.catalog.catalogVersion).toBe("1.1.0");
  });

  it("keeps a removed tool for `retention` releases, then drops it", () => {
    const r2 = release([pet], first, { retention: 2 }).catalog;
    expect(r2.catalogVersion).toBe("2.0.0");
    expect(entry(r2, "get_inventory")).toMatchObject({
      status: "removed",
      compatibility: "breaking",
      removedIn: "2.0.0",
      releasesLeft: 1,
    });
    // A rebuild without changes is not a release: nothing counts down.
    expect(release([pet], r2).catalog).toEqual(r2);
    const r3 = release(
      [
        editTool(pet, (t) => {
          t.description = "x";
        }),
      ],
      r2,
    ).catalog;
    expect(r3.catalogVersion).toBe("2.0.1");
    expect(entry(r3, "get_inventory").releasesLeft).toBe(0);
    const r4 = release(
      [
        editTool(pet, (t) => {
          t.description = "y";
        }),
      ],
      r3,
    ).catalog;
    expect(r4.tools.map((t) => t.name)).toEqual(["update_pet"]);
  });

  it("records a rename on both entries and bumps the contract version", () => {
    const next = release(
      [
        editTool(pet, (t) => {
          t.name = "pet_update";
        }),
        inventory,
      ],
      first,
    ).catalog;
    expect(entry(next, "pet_update")).toMatchObject({
      renamedFrom: "update_pet",
      contractVersion: 2,
      compatibility: "breaking",
    });
    expect(entry(next, "update_pet")).toMatchObject({ status: "removed", renamedTo: "pet_update" });
  });

  it("gives a tool back after a removal a new contract version", () => {
    const removed = release([inventory], first).catalog;
    const back = release([inventory, pet], removed).catalog;
    expect(entry(back, "update_pet")).toMatchObject({
      status: "active",
      compatibility: "new",
      contractVersion: 2,
    });
  });

  it("takes an explicit catalogVersion", () => {
    expect(
      buildCatalog({ model: { info, tools: [pet] }, catalogVersion: "4.2.0" }).catalog.catalogVersion,
    ).toBe("4.2.0");
  });
});

describe("schemas/catalog.schema.json", () => {
  const schema = JSON.parse(
    readFileSync(join(import.meta.dirname, "../../../schemas/catalog.schema.json"), "utf8"),
  );
  const validate = new Ajv2020({ allErrors: true, strictRequired: false }).compile(schema);
  const first = release([pet, inventory]).catalog;
  const renamed = release(
    [editTool(pet, (t) => void Object.assign(t, { name: "pet_update" }))],
    first,
  ).catalog;

  it.each([
    ["a first catalog", first],
    ["a catalog with a rename and a removal", renamed],
    [
      "a catalog whose tool is deprecated",
      release([editTool(pet, (t) => void Object.assign(t, { deprecated: true }))], first).catalog,
    ],
  ])("accepts %s", (_what, catalog) => {
    expect(validate(JSON.parse(JSON.stringify(catalog))), JSON.stringify(validate.errors)).toBe(true);
  });

  it("refuses a removed tool without removedIn, and an active one with it", () => {
    const copy = JSON.parse(JSON.stringify(renamed)) as CatalogDocument;
    const removed = copy.tools.find((t) => t.status === "removed")!;
    delete removed.removedIn;
    expect(validate(copy)).toBe(false);
    const active = JSON.parse(JSON.stringify(first)) as CatalogDocument;
    active.tools[0]!.removedIn = "1.0.0";
    expect(validate(active)).toBe(false);
  });
});

describe("reading a catalog back", () => {
  const catalog = release([pet, inventory]).catalog;

  it("accepts what buildCatalog wrote", () => {
    expect(checkCatalog(JSON.parse(JSON.stringify(catalog)), "c.json")).toEqual(catalog);
  });

  const broken: [string, (c: Record<string, unknown>) => void, string, string][] = [
    [
      "a spec",
      (c) => {
        delete c.catalogFormat;
        c.openapi = "3.1.0";
      },
      "OMB_CATALOG_INVALID",
      "",
    ],
    [
      "a newer format",
      (c) => {
        c.catalogFormat = 2;
      },
      "OMB_CATALOG_FORMAT",
      "/catalogFormat",
    ],
    [
      "a bad version",
      (c) => {
        c.catalogVersion = "v1";
      },
      "OMB_CATALOG_VERSION",
      "/catalogVersion",
    ],
    [
      "no api",
      (c) => {
        delete c.api;
      },
      "OMB_CATALOG_INVALID",
      "/api",
    ],
    [
      "a tool without a contract version",
      (c) => {
        delete (c.tools as Record<string, unknown>[])[1]!.contractVersion;
      },
      "OMB_CATALOG_INVALID",
      "/tools/1/contractVersion",
    ],
    [
      "an unknown status",
      (c) => {
        (c.tools as Record<string, unknown>[])[0]!.status = "gone";
      },
      "OMB_CATALOG_INVALID",
      "/tools/0/status",
    ],
    [
      "a binding without security",
      (c) => {
        const tools = c.tools as { contract: { binding: Record<string, unknown> } }[];
        delete tools[0]!.contract.binding.security;
      },
      "OMB_CATALOG_INVALID",
      "/tools/0/contract/binding",
    ],
  ];

  it.each(broken)("refuses %s with a coded diagnostic", (_what, breakIt, code, pointer) => {
    const value = JSON.parse(JSON.stringify(catalog)) as Record<string, unknown>;
    breakIt(value);
    try {
      checkCatalog(value, "c.json");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BridgeError);
      expect((error as BridgeError).diagnostics[0]).toMatchObject({ code, pointer, file: "c.json" });
    }
  });

  it("refuses to continue a previous catalog whose version is not MAJOR.MINOR.PATCH", () => {
    const previous = { ...catalog, catalogVersion: "1.0" };
    expect(() => release([pet], previous)).toThrow(/not MAJOR.MINOR.PATCH/);
  });
});
