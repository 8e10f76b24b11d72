/**
 * describe's declarations in code mode: operations that use the same component declare its
 * type once (Asana's createTask and updateTask both take `TaskRequest` and the six types it
 * refers to; they were declared twice, the second time as `TaskRequest2` and so on).
 */
import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import { createSignatures } from "../../../../src/runtime/code/signatures.js";
import { planSpec } from "../../../e2e/safety-support.js";

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };

function toolsOf(schemas: Record<string, unknown>): ToolNode[] {
  const body = (ref: string) => ({
    required: true,
    // An envelope, as Asana's `{ data: TaskRequest }`: the component stays a named type.
    content: {
      "application/json": {
        schema: { type: "object", properties: { data: { $ref: `#/components/schemas/${ref}` } } },
      },
    },
  });
  return planSpec({
    paths: {
      "/tasks": { post: { operationId: "createTask", requestBody: body("Task"), responses: ok } },
      "/tasks/{id}": {
        put: {
          operationId: "updateTask",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: body("Task"),
          responses: ok,
        },
      },
      "/notes": { post: { operationId: "createNote", requestBody: body("Note"), responses: ok } },
    },
    components: { schemas },
  }).tools;
}

const TASK = {
  type: "object",
  properties: { name: { type: "string" }, owner: { $ref: "#/components/schemas/User" } },
};
const USER = { type: "object", properties: { gid: { type: "string" } } };

function countTypes(text: string, name: string): number {
  return text.split("\n").filter((line) => line.startsWith(`type ${name} = `)).length;
}

describe("declarationOf shares the types of one answer", () => {
  const cases: {
    label: string;
    tools: () => ToolNode[];
    names: string[];
    want: Record<string, number>;
  }[] = [
    {
      label: "two operations of one component: each type once",
      tools: () => toolsOf({ Task: TASK, User: USER }),
      names: ["createTask", "updateTask"],
      want: { Task: 1, User: 1, Task2: 0, User2: 0 },
    },
    {
      label: "an operation of another component keeps the shared one once",
      tools: () =>
        toolsOf({
          Task: TASK,
          User: USER,
          Note: { type: "object", properties: { by: { $ref: "#/components/schemas/User" } } },
        }),
      names: ["createTask", "createNote", "updateTask"],
      want: { Task: 1, User: 1, Note: 1, User2: 0 },
    },
  ];
  for (const { label, tools, names, want } of cases) {
    it(label, () => {
      const all = tools();
      const text = createSignatures().declarationOf(names.map((n) => all.find((t) => t.name === n)!));
      for (const [name, count] of Object.entries(want)) expect(countTypes(text, name), name).toBe(count);
    });
  }

  it("a component of the same name but another shape (another API) gets a name of its own", () => {
    const first = toolsOf({ Task: TASK, User: USER }).find((t) => t.name === "createTask")!;
    const other = toolsOf({
      Task: TASK,
      User: { type: "object", properties: { id: { type: "integer" } } },
    }).find((t) => t.name === "updateTask")!;
    const text = createSignatures().declarationOf([first, other]);
    // Task's JSON is the same, but the User it refers to is not: both are declared again.
    expect(countTypes(text, "User")).toBe(1);
    expect(countTypes(text, "User2")).toBe(1);
    expect(countTypes(text, "Task2")).toBe(1);
    expect(text).toMatch(/type Task2 = \{[^}]*owner\?: User2;/s);
    expect(text).toMatch(/type User2 = \{\s*id\?: number;/s);
  });
});
