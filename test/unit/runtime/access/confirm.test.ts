/**
 * The confirmation question shows which record a destructive call changes, never cut off; what
 * the confirm hook's answers (and its two errors) become.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import {
  askConfirmation,
  ConfirmationInvalid,
  ConfirmationPending,
  describeArguments,
} from "../../../../src/runtime/access/confirm.js";
import type { CallState } from "../../../../src/runtime/audit/audited-call.js";
import { ERROR_META_KEY } from "../../../../src/runtime/results/error-result.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

const model = planSpec({ paths: TOY_PATHS });
const deletePet = model.tools.find((tool) => tool.name === "deletePet")!;
const updatePet = model.tools.find((tool) => tool.name === "updatePet")!;

describe("describeArguments", () => {
  it("keeps short arguments as they are", () => {
    expect(describeArguments(deletePet, { id: "7" })).toBe('{"id":"7"}');
  });

  it("shows the path value first and whole, however long the rest the caller sent before it", () => {
    const args = { note: "x".repeat(5_000), id: "PRODUCTION-DATABASE" };
    const shown = describeArguments(updatePet, args);
    expect(shown.startsWith('{"id":"PRODUCTION-DATABASE","note":"xxx')).toBe(true);
    expect(shown).toMatch(/… \(\d[\d,]* more characters\)$/);
    expect(shown.length).toBeLessThan(1_100);
  });

  it("never cuts a path value, even one longer than the budget", () => {
    const id = "y".repeat(3_000);
    const shown = describeArguments(deletePet, { id });
    expect(shown).toBe(JSON.stringify({ id }));
  });
});

describe("askConfirmation", () => {
  const categoryOf = (result: CallToolResult | undefined) =>
    (result?._meta?.[ERROR_META_KEY] as { category?: string } | undefined)?.category;

  it("goes ahead when the user accepts, and says so for the audit line", async () => {
    const state: CallState = { secrets: [] };
    const asked: string[] = [];
    const confirm = async (message: string) => {
      asked.push(message);
      return true;
    };
    expect(await askConfirmation(deletePet, { id: "7" }, { confirm }, state)).toBeUndefined();
    expect(asked[0]).toContain(
      'deletePet (DELETE /pets/{id}), which may change or delete data, with {"id":"7"}',
    );
    expect(state.confirmation).toBe("accepted");
  });

  it("refuses when the user does not accept", async () => {
    const state: CallState = { secrets: [] };
    const result = await askConfirmation(deletePet, { id: "7" }, { confirm: async () => false }, state);
    expect(categoryOf(result)).toBe("confirmation_declined");
    expect(state.confirmation).toBe("declined");
  });

  it("turns ConfirmationPending into a pending result: the question goes out as this round's answer", async () => {
    const state: CallState = { secrets: [] };
    const confirm = async (): Promise<boolean> => {
      throw new ConfirmationPending();
    };
    const result = await askConfirmation(deletePet, { id: "7" }, { confirm }, state);
    expect(categoryOf(result)).toBe("confirmation_pending");
    expect(state.confirmation).toBe("asked");
  });

  it("refuses instead of asking from a program, whose retry would repeat its other calls", async () => {
    const state: CallState = { secrets: [] };
    const confirm = async (): Promise<boolean> => {
      throw new ConfirmationPending();
    };
    const result = await askConfirmation(deletePet, { id: "7" }, { confirm, wholeAnswer: true }, state);
    expect(categoryOf(result)).toBe("confirmation_unavailable");
    expect(result?.content[0]).toMatchObject({ text: expect.stringContaining("a program cannot be paused") });
    expect(state.confirmation).toBeUndefined();
  });

  it("refuses an answer that cannot be trusted, saying why", async () => {
    const state: CallState = { secrets: [] };
    const confirm = async (): Promise<boolean> => {
      throw new ConfirmationInvalid("it was asked for another call");
    };
    const result = await askConfirmation(deletePet, { id: "7" }, { confirm }, state);
    expect(categoryOf(result)).toBe("confirmation_invalid");
    expect(result?.content[0]).toMatchObject({
      text: expect.stringContaining("it was asked for another call"),
    });
    expect(state.confirmation).toBe("refused");
  });
});
