/**
 * The diff rules, one row each: given an old and a new tool list, the exact set of changes
 * (rule code and pointer) the diff reports. A last check fails when a rule has no row.
 */
import { describe, expect, it } from "vitest";
import { CHANGE_RULES, type ChangeCode } from "../../../src/contracts/change-rules.js";
import { describeContract, stripDocs } from "../../../src/contracts/contract.js";
import { diffContracts, diffTools } from "../../../src/contracts/diff-tools.js";
import type { JsonSchema, ToolNode } from "../../../src/model/types.js";
import { editTool, makeOtherTool, makeTool, owner, prop } from "./tool-factory.js";

interface Row {
  rule: string;
  old: ToolNode[];
  new: ToolNode[];
  /** Every change reported, as `code pointer`. */
  want: string[];
  /** Compare the new side as a catalog holds it (no prose). */
  newFromCatalog?: boolean;
}

const base = makeTool();
const other = makeOtherTool();
/** One tool, old and new: `base` and `base` with `change` applied. */
const edited = (change: (t: ToolNode) => void): Pick<Row, "old" | "new"> => ({
  old: [base],
  new: [editTool(base, change)],
});
/** One tool whose old version is `base` with `before` applied, the new one `base`. */
const reverted = (before: (t: ToolNode) => void): Pick<Row, "old" | "new"> => ({
  old: [editTool(base, before)],
  new: [base],
});

const rows: Row[] = [
  // Tools
  { rule: "tool-removed", old: [base, other], new: [other], want: ["tool-removed "] },
  { rule: "tool-added", old: [other], new: [base, other], want: ["tool-added "] },
  {
    rule: "tool-renamed (same operationId)",
    ...edited((t) => {
      t.name = "pet_update";
    }),
    want: ["tool-renamed "],
  },
  {
    rule: "tool-renamed (same method and path, new operationId)",
    ...edited((t) => {
      t.name = "replace_pet";
      t.source.operationId = "replacePet";
    }),
    want: ["tool-renamed "],
  },
  {
    rule: "tool-deprecated",
    ...edited((t) => {
      t.deprecated = true;
    }),
    want: ["tool-deprecated "],
  },
  {
    rule: "tool-undeprecated",
    ...reverted((t) => {
      t.deprecated = true;
    }),
    want: ["tool-undeprecated "],
  },
  {
    rule: "contract-changed (a binding detail no finer rule names)",
    ...edited((t) => {
      t.http.parameters[1]!.required = true;
    }),
    want: ["contract-changed "],
  },
  // Behaviour hints
  {
    rule: "read-only-lost",
    ...reverted((t) => {
      t.annotations.readOnlyHint = true;
    }),
    want: ["read-only-lost /annotations/readOnlyHint"],
  },
  {
    rule: "read-only-gained",
    ...edited((t) => {
      t.annotations.readOnlyHint = true;
    }),
    want: ["read-only-gained /annotations/readOnlyHint"],
  },
  {
    rule: "became-destructive",
    ...edited((t) => {
      t.annotations.destructiveHint = true;
    }),
    want: ["became-destructive /annotations/destructiveHint"],
  },
  {
    rule: "no-longer-destructive",
    ...reverted((t) => {
      t.annotations.destructiveHint = true;
    }),
    want: ["no-longer-destructive /annotations/destructiveHint"],
  },
  {
    rule: "idempotent-lost",
    ...edited((t) => {
      t.annotations.idempotentHint = false;
    }),
    want: ["idempotent-lost /annotations/idempotentHint"],
  },
  {
    rule: "idempotent-gained",
    ...reverted((t) => {
      t.annotations.idempotentHint = false;
    }),
    want: ["idempotent-gained /annotations/idempotentHint"],
  },
  {
    rule: "open-world-changed",
    ...edited((t) => {
      t.annotations.openWorldHint = false;
    }),
    want: ["open-world-changed /annotations/openWorldHint"],
  },
  // Binding and auth
  {
    rule: "body-media-type-changed",
    ...edited((t) => {
      t.http.body!.mediaType = "application/x-www-form-urlencoded";
      t.http.body!.kind = "form";
    }),
    want: ["body-media-type-changed "],
  },
  {
    rule: "auth-added (a scope added)",
    ...edited((t) => {
      t.http.security = [{ petstore_auth: ["write:pets", "admin"] }];
    }),
    want: ["auth-added "],
  },
  {
    rule: "auth-added (none before)",
    old: [other],
    new: [
      editTool(other, (t) => {
        t.http.security = [{ api_key: [] }];
      }),
    ],
    want: ["auth-added "],
  },
  {
    rule: "auth-relaxed (another way to authenticate)",
    ...edited((t) => {
      t.http.security = [{ petstore_auth: ["write:pets"] }, { api_key: [] }];
    }),
    want: ["auth-relaxed "],
  },
  {
    rule: "operation-moved (path)",
    ...edited((t) => {
      t.http.path = "/v2/pets/{petId}";
    }),
    want: ["operation-moved "],
  },
  {
    rule: "binding-changed (an argument moves from the query to a header)",
    ...edited((t) => {
      Object.assign(t.http.parameters[1]!, {
        in: "header",
        name: "X-Status",
        style: "simple",
        explode: false,
      });
    }),
    want: ["binding-changed /inputSchema/properties/status"],
  },
  {
    rule: "result-outline-unlisted (answers may also come as a diff: GitHub's repos/get-commit)",
    ...edited((t) => {
      t.http.responses[0]!.mediaTypes.push("application/vnd.github.diff");
      delete t.outputSchema;
    }),
    want: ["response-type-added ", "result-outline-unlisted /outputSchema"],
  },
  // Arguments
  {
    rule: "argument-removed",
    ...edited((t) => {
      delete (t.inputSchema.properties as Record<string, unknown>).status;
      t.http.parameters.splice(1, 1);
    }),
    want: ["argument-removed /inputSchema/properties/status"],
  },
  {
    rule: "argument-removed (a field inside a $ref)",
    ...edited((t) => {
      delete (owner(t).properties as Record<string, unknown>).email;
    }),
    want: ["argument-removed /inputSchema/$defs/Owner/properties/email"],
  },
  {
    rule: "required-argument-added",
    ...edited((t) => {
      (t.inputSchema.properties as Record<string, JsonSchema>).category = { type: "string" };
      (t.inputSchema.required as string[]).push("category");
    }),
    want: ["required-argument-added /inputSchema/properties/category"],
  },
  {
    rule: "optional-argument-added",
    ...edited((t) => {
      (t.inputSchema.properties as Record<string, JsonSchema>).category = { type: "string" };
    }),
    want: ["optional-argument-added /inputSchema/properties/category"],
  },
  {
    rule: "argument-made-required (nested, inside a recursive $ref)",
    ...edited((t) => {
      owner(t).required = ["login", "email"];
    }),
    want: ["argument-made-required /inputSchema/$defs/Owner/properties/email"],
  },
  {
    rule: "argument-made-optional",
    ...edited((t) => {
      t.inputSchema.required = ["petId"];
    }),
    want: ["argument-made-optional /inputSchema/properties/name"],
  },
  {
    rule: "dependent-required-added",
    ...edited((t) => {
      owner(t).dependentRequired = { email: ["login"] };
    }),
    want: ["dependent-required-added /inputSchema/$defs/Owner/dependentRequired"],
  },
  {
    rule: "type-changed",
    ...edited((t) => {
      prop(t, "petId").type = "string";
    }),
    want: ["type-changed /inputSchema/properties/petId/type"],
  },
  {
    rule: "type-narrowed (no longer nullable)",
    ...reverted((t) => {
      prop(t, "name").type = ["string", "null"];
    }),
    want: ["type-narrowed /inputSchema/properties/name/type"],
  },
  {
    rule: "type-narrowed (a nullable $ref, anyOf with null, loses null)",
    ...reverted((t) => {
      (t.inputSchema.properties as Record<string, JsonSchema>).owner = {
        anyOf: [{ $ref: "#/$defs/Owner" }, { type: "null" }],
      };
    }),
    want: ["type-narrowed /inputSchema/properties/owner/type"],
  },
  {
    rule: "type-widened",
    ...edited((t) => {
      prop(t, "petId").type = "number";
    }),
    want: ["type-widened /inputSchema/properties/petId/type"],
  },
  {
    rule: "enum-value-removed",
    ...edited((t) => {
      prop(t, "status").enum = ["available"];
    }),
    want: ["enum-value-removed /inputSchema/properties/status/enum"],
  },
  {
    rule: "enum-value-added",
    ...edited((t) => {
      prop(t, "status").enum = ["available", "sold", "pending"];
    }),
    want: ["enum-value-added /inputSchema/properties/status/enum"],
  },
  {
    rule: "enum-added (const)",
    ...edited((t) => {
      prop(t, "name").const = "Rex";
    }),
    want: ["enum-added /inputSchema/properties/name/const"],
  },
  {
    rule: "format-tightened",
    ...edited((t) => {
      prop(t, "name").format = "uuid";
    }),
    want: ["format-tightened /inputSchema/properties/name/format"],
  },
  {
    rule: "format-noted (int64 on an integer: GitHub's job_id)",
    ...edited((t) => {
      prop(t, "petId").format = "int64";
    }),
    want: ["format-noted /inputSchema/properties/petId/format"],
  },
  {
    rule: "format-tightened (int32 limits the range)",
    ...edited((t) => {
      prop(t, "petId").format = "int32";
    }),
    want: ["format-tightened /inputSchema/properties/petId/format"],
  },
  {
    rule: "pattern-tightened",
    ...edited((t) => {
      (owner(t).properties as Record<string, JsonSchema>).login!.pattern = "^[a-z]{3,}$";
    }),
    want: ["pattern-tightened /inputSchema/$defs/Owner/properties/login/pattern"],
  },
  {
    rule: "length-tightened (array items)",
    ...edited((t) => {
      (prop(t, "tags").items as JsonSchema).maxLength = 10;
    }),
    want: ["length-tightened /inputSchema/properties/tags/items/maxLength"],
  },
  {
    rule: "range-tightened",
    ...edited((t) => {
      prop(t, "petId").minimum = 10;
    }),
    want: ["range-tightened /inputSchema/properties/petId/minimum"],
  },
  {
    rule: "count-tightened",
    ...edited((t) => {
      prop(t, "tags").maxItems = 5;
    }),
    want: ["count-tightened /inputSchema/properties/tags/maxItems"],
  },
  {
    rule: "additional-properties-restricted",
    ...edited((t) => {
      owner(t).additionalProperties = false;
    }),
    want: ["additional-properties-restricted /inputSchema/$defs/Owner/additionalProperties"],
  },
  {
    rule: "constraint-loosened",
    ...edited((t) => {
      prop(t, "name").maxLength = 100;
      delete prop(t, "petId").minimum;
    }),
    want: [
      "constraint-loosened /inputSchema/properties/name/maxLength",
      "constraint-loosened /inputSchema/properties/petId/minimum",
    ],
  },
  {
    rule: "alternative-removed",
    ...reverted((t) => {
      (t.inputSchema.properties as Record<string, JsonSchema>).petId = {
        oneOf: [
          { type: "integer", minimum: 1 },
          { type: "string", pattern: "^pet-" },
        ],
      };
    }),
    want: [
      "alternative-removed /inputSchema/properties/petId/oneOf/1",
      "type-narrowed /inputSchema/properties/petId/type",
    ],
  },
  {
    rule: "alternative-added",
    ...edited((t) => {
      (t.inputSchema.properties as Record<string, JsonSchema>).petId = {
        oneOf: [
          { type: "integer", minimum: 1 },
          { type: "string", pattern: "^pet-" },
        ],
      };
    }),
    want: [
      "alternative-added /inputSchema/properties/petId/oneOf/1",
      "type-widened /inputSchema/properties/petId/type",
    ],
  },
  {
    rule: "none: an alternative's own change is found through the pairing",
    old: [
      editTool(base, (t) => {
        prop(t, "petId").oneOf = [{ type: "integer" }, { type: "string", enum: ["a", "b"] }];
        delete prop(t, "petId").type;
      }),
    ],
    new: [
      editTool(base, (t) => {
        prop(t, "petId").oneOf = [{ type: "string", enum: ["a"] }, { type: "integer" }];
        delete prop(t, "petId").type;
      }),
    ],
    want: ["enum-value-removed /inputSchema/properties/petId/oneOf/0/enum"],
  },
  {
    rule: "keyword-changed",
    ...edited((t) => {
      prop(t, "name").not = { const: "" };
    }),
    want: ["keyword-changed /inputSchema/properties/name/not"],
  },
  {
    rule: "keyword-removed",
    ...reverted((t) => {
      prop(t, "name").not = { const: "" };
    }),
    want: ["keyword-removed /inputSchema/properties/name/not"],
  },
  {
    rule: "default-changed",
    ...edited((t) => {
      prop(t, "status").default = "sold";
    }),
    want: ["default-changed /inputSchema/properties/status/default"],
  },
  {
    rule: "argument-deprecated",
    ...edited((t) => {
      prop(t, "status").deprecated = true;
    }),
    want: ["argument-deprecated /inputSchema/properties/status/deprecated"],
  },
  // Results
  {
    rule: "result-field-removed",
    ...edited((t) => {
      delete (t.outputSchema!.properties as Record<string, unknown>).name;
    }),
    want: ["result-field-removed /outputSchema/properties/name"],
  },
  {
    rule: "result-field-retyped",
    ...edited((t) => {
      (t.outputSchema!.properties as Record<string, JsonSchema>).owner = {};
    }),
    want: ["result-field-retyped /outputSchema/properties/owner/type"],
  },
  {
    rule: "result-field-narrowed",
    ...edited((t) => {
      (t.outputSchema!.properties as Record<string, JsonSchema>).tags!.items = { type: ["string"] };
    }),
    want: ["result-field-narrowed /outputSchema/properties/tags/items/type"],
  },
  {
    rule: "result-field-added",
    ...edited((t) => {
      (t.outputSchema!.properties as Record<string, JsonSchema>).status = {};
    }),
    want: ["result-field-added /outputSchema/properties/status"],
  },
  {
    rule: "result-outline-removed (and response-type-removed: answers are no longer JSON)",
    ...edited((t) => {
      t.http.responses = [{ status: "200", description: "OK", mediaTypes: ["application/xml"] }];
      delete t.outputSchema;
    }),
    want: ["response-type-removed ", "response-type-added ", "result-outline-removed /outputSchema"],
  },
  {
    rule: "result-outline-added",
    ...reverted((t) => {
      delete t.outputSchema;
    }),
    want: ["result-outline-added /outputSchema"],
  },
  // Prose
  {
    rule: "title-changed",
    ...edited((t) => {
      t.title = "Change a pet";
      t.annotations.title = "Change a pet";
    }),
    want: ["title-changed /annotations/title", "title-changed /title"],
  },
  {
    rule: "description-changed (the tool's and a definition's)",
    ...edited((t) => {
      t.description = "Changes a pet.";
      owner(t).description = "The pet's owner";
    }),
    want: ["description-changed /description", "description-changed /inputSchema/$defs/Owner/description"],
  },
  {
    rule: "example-changed",
    ...edited((t) => {
      prop(t, "name").examples = ["Fido"];
    }),
    want: ["example-changed /inputSchema/properties/name/examples"],
  },
  {
    rule: "docs-changed (the new side is a catalog, which keeps the prose digest only)",
    ...edited((t) => {
      prop(t, "petId").description = "The id of the pet";
    }),
    newFromCatalog: true,
    want: ["docs-changed "],
  },
  // Walks that must not report anything
  {
    rule: "none: keys, required and enum reordered",
    ...edited((t) => {
      t.inputSchema.required = ["name", "petId"];
      prop(t, "status").enum = ["sold", "available"];
      const { type, ...rest } = prop(t, "petId");
      (t.inputSchema.properties as Record<string, JsonSchema>).petId = { ...rest, type: type! };
    }),
    want: [],
  },
  {
    rule: "compatible only: a nullable string becomes a nullable string-or-object (GitHub's issues/update type)",
    ...edited((t) => {
      (t.inputSchema.properties as Record<string, JsonSchema>).name = {
        anyOf: [
          { oneOf: [{ type: "string" }, { type: "object", properties: { value: { type: "string" } } }] },
          { type: "null" },
        ],
      };
    }),
    old: [
      editTool(base, (t) => {
        (t.inputSchema.properties as Record<string, JsonSchema>).name = { type: ["string", "null"] };
      }),
    ],
    want: [
      "alternative-added /inputSchema/properties/name/anyOf/0/oneOf/1",
      "type-widened /inputSchema/properties/name/anyOf/0/type",
      "type-widened /inputSchema/properties/name/type",
    ],
  },
  {
    rule: "compatible only: an alternative merged into another one (GitHub's issues/add-labels body)",
    old: [
      editTool(base, (t) => {
        (t.inputSchema.properties as Record<string, JsonSchema>).name = {
          oneOf: [
            { type: "object", properties: { labels: { type: "array", items: { type: "string" } } } },
            {
              type: "object",
              properties: {
                labels: {
                  type: "array",
                  items: { type: "object", properties: { name: { type: "string" } } },
                },
              },
            },
          ],
        };
      }),
    ],
    new: [
      editTool(base, (t) => {
        (t.inputSchema.properties as Record<string, JsonSchema>).name = {
          oneOf: [
            {
              type: "object",
              properties: {
                labels: {
                  type: "array",
                  items: {
                    oneOf: [{ type: "string" }, { type: "object", properties: { name: { type: "string" } } }],
                  },
                },
              },
            },
          ],
        };
      }),
    ],
    want: [
      "alternative-added /inputSchema/properties/name/oneOf/0/properties/labels/items/oneOf/1",
      "type-widened /inputSchema/properties/name/oneOf/0/properties/labels/items/type",
    ],
  },
  {
    rule: "none: the same contract read back from a catalog",
    old: [base],
    new: [base],
    newFromCatalog: true,
    want: [],
  },
];

function run(row: Row): string[] {
  const oldContracts = row.old.map(describeContract);
  const newContracts = row.new.map((t) =>
    row.newFromCatalog ? stripDocs(describeContract(t)) : describeContract(t),
  );
  return diffContracts(oldContracts, newContracts).map((c) => `${c.code} ${c.pointer}`);
}

describe("the tool diff", () => {
  it.each(rows)("$rule", (row) => {
    expect(run(row).sort()).toEqual([...row.want].sort());
  });

  it("has a row for every rule", () => {
    const covered = new Set(rows.flatMap((row) => row.want.map((w) => w.split(" ")[0])));
    const missing = (Object.keys(CHANGE_RULES) as ChangeCode[]).filter((code) => !covered.has(code));
    expect(missing).toEqual([]);
  });

  it("names the tool, operation, severity and a one-line message", () => {
    const changes = diffTools(
      [base, other],
      [
        editTool(base, (t) => {
          prop(t, "status").enum = ["sold"];
        }),
      ],
    );
    expect(changes).toEqual([
      {
        tool: "get_inventory",
        operationId: "getInventory",
        method: "GET",
        path: "/store/inventory",
        severity: "breaking",
        code: "tool-removed",
        message: "tool `get_inventory` was removed",
        pointer: "",
      },
      {
        tool: "update_pet",
        operationId: "updatePet",
        method: "PUT",
        path: "/pets/{petId}",
        severity: "breaking",
        code: "enum-value-removed",
        message: '`status` no longer accepts "available"',
        pointer: "/inputSchema/properties/status/enum",
      },
    ]);
  });

  it("walks a recursive definition once per pair", () => {
    const next = editTool(base, (t) => {
      (owner(t).properties as Record<string, JsonSchema>).login!.maxLength = 8;
    });
    const changes = diffTools([base], [next]);
    expect(changes.map((c) => [c.code, c.pointer, c.message])).toEqual([
      [
        "length-tightened",
        "/inputSchema/$defs/Owner/properties/login/maxLength",
        "maxLength of `owner.login`: (none) → 8",
      ],
    ]);
  });

  it("reports a renamed tool's own changes under its new name", () => {
    const next = editTool(base, (t) => {
      t.name = "pet_update";
      prop(t, "status").enum = ["available", "sold", "lost"];
    });
    expect(diffTools([base], [next]).map((c) => `${c.tool} ${c.code}`)).toEqual([
      "pet_update tool-renamed",
      "pet_update enum-value-added",
    ]);
  });

  it("leaves results out when asked (a side whose outlines are not complete), digest included", () => {
    const next = editTool(base, (t) => {
      delete (t.outputSchema!.properties as Record<string, unknown>).name;
    });
    const contracts = [describeContract(base)];
    expect(diffContracts(contracts, [describeContract(next)], { results: false })).toEqual([]);
    expect(diffContracts(contracts, [describeContract(next)]).map((c) => c.code)).toEqual([
      "result-field-removed",
    ]);
  });

  it("names a moved operation by its old method and path, so that it is found by them", () => {
    const next = editTool(base, (t) => {
      t.http.path = "/pets/{petId}/";
      t.source.operationId = undefined;
    });
    const old = editTool(base, (t) => {
      t.source.operationId = undefined;
    });
    expect(diffTools([old], [next])).toEqual([
      expect.objectContaining({
        tool: "update_pet",
        code: "operation-moved",
        method: "PUT",
        path: "/pets/{petId}",
        message: "calls go to PUT /pets/{petId}/ (was PUT /pets/{petId})",
      }),
    ]);
  });
});
